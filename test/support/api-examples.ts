/**
 * The API description's example answers (docs/openapi.json; each validates against its schema): real
 * records for doubles of the typed client, so what a double answers is what the API would.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AnswerKey } from '#mcp/answers';

const document = JSON.parse(readFileSync(resolve(__dirname, '../../docs/openapi.json'), 'utf8'));

/** The whole body the API answers for `key` (`{data}`, `{data, meta}`), a fresh copy each time. */
export function exampleAnswer(key: AnswerKey): any {
  const [method, path, status] = key.split(' ') as [string, string, string];
  const content = document.paths[path]?.[method.toLowerCase()]?.responses?.[status]?.content?.['application/json'];
  const example = content?.example ?? Object.values<{ value: unknown }>(content?.examples ?? {})[0]?.value;
  if (example === undefined) throw new Error(`docs/openapi.json has no example of ${key}`);
  return structuredClone(example);
}

/** The record (or list) the typed client's helpers answer: the body's `data`. */
export const exampleData = (key: AnswerKey): any => exampleAnswer(key).data;
