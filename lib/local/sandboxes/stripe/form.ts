/**
 * Stripe's request bodies: `application/x-www-form-urlencoded` with nested fields in brackets, as the
 * SDK writes them (`line_items[0][price]=price_1&metadata[plan]=pro`). Array items keep their indexes
 * as keys (`line_items['0']`), which is all the sandbox needs to read them.
 */
import { isRecord } from '../sandbox-kit';

type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

/** `a[b][0][c]` → `['a', 'b', '0', 'c']`; null for a name that is not of that shape. */
function pathOf(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!match) return null;
  const rest = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  return [match[1]!, ...rest];
}

/** The fields of a form body; a name the SDK would not write is a 400 for the caller to answer. */
export function decodeForm(text: string): FormObject | { invalid: string } {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = pathOf(name);
    if (!path || path.some((segment) => segment === '' || segment === '__proto__')) return { invalid: name };
    let node = root;
    for (const segment of path.slice(0, -1)) {
      const next = node[segment];
      if (next === undefined) node = node[segment] = {};
      else if (isRecord(next)) node = next;
      else return { invalid: name };
    }
    node[path.at(-1)!] = value;
  }
  return root;
}

/** A nested field's text, or undefined. */
export function textAt(form: FormObject, ...path: string[]): string | undefined {
  let node: FormValue | undefined = form;
  for (const segment of path) node = isRecord(node) ? node[segment] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** A nested field's object of texts (metadata), or an empty one. */
export function textsAt(form: FormObject, ...path: string[]): Record<string, string> {
  let node: FormValue | undefined = form;
  for (const segment of path) node = isRecord(node) ? node[segment] : undefined;
  if (!isRecord(node)) return {};
  return Object.fromEntries(Object.entries(node).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
