/**
 * Each tool's outputSchema (MCP 2025-06-18, structured tool output): the JSON Schema of the API answer
 * it hands back (answers.ts), as answer-schemas.ts holds it, generated from the API description that
 * the API's own zod schemas make.
 *
 * The SDK takes a zod schema and lists it as JSON Schema: an open object carrying the answer's JSON
 * Schema as its metadata, which zod writes over what it makes of the object, so `tools/list` shows the
 * answer's schema as generated. It is not converted back into a zod schema: the converter and the zod
 * types it needs would put the MCP function over its bundle budget. The SDK's own check of each
 * result on the way out is then only that structuredContent is an object; that the object is the
 * answer is the API's contract, which its tests hold every answer to, and hosts check it against the
 * listed schema (the tests here do, with Ajv, as hosts do).
 */
import * as z from 'zod';
import { ANSWER_DEFS, ANSWER_SCHEMAS } from './answer-schemas.js';
import type { ToolOutput } from './answers.js';

type Schema = { [key: string]: unknown };

const DEFS = ANSWER_DEFS as unknown as Record<string, Schema>;
/** Made once per process: the HTTP transport builds a server per request. */
const made = new Map<string, z.ZodObject>();

/** What the tool puts in structuredContent (results.ts): the body, or its data as an object. */
export function outputSchemaOf(output: ToolOutput): z.ZodObject {
  const key = `${output.answer} ${output.part}`;
  let schema = made.get(key);
  if (!schema) {
    const body = ANSWER_SCHEMAS[output.answer] as unknown as Schema;
    const root = output.part === 'body' ? body : asObject((body.properties as Record<string, Schema>).data!);
    if (root.type !== 'object') throw new Error(`the answer ${key} is not an object, which structuredContent must be`);
    made.set(key, (schema = z.looseObject({}).meta({ ...root, $defs: defsReached(root) })));
  }
  return schema;
}

/** The components a schema names, and those they name in turn: only these are listed with it. */
function defsReached(root: Schema): Record<string, Schema> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key !== '$ref' || typeof inner !== 'string') visit(inner);
      else if (!names.has(inner.replace('#/$defs/', ''))) {
        names.add(inner.replace('#/$defs/', ''));
        visit(DEFS[inner.replace('#/$defs/', '')]);
      }
    }
  };
  visit(root);
  return Object.fromEntries([...names].sort().map((name) => [name, DEFS[name]!]));
}

/** A record's schema (its component's, for a ref); a list under `data`, as dataResult puts it. */
function asObject(schema: Schema): Schema {
  if (schema.type === 'array') return { type: 'object', properties: { data: schema }, required: ['data'] };
  const ref = typeof schema.$ref === 'string' ? schema.$ref.replace('#/$defs/', '') : undefined;
  return ref === undefined ? schema : DEFS[ref]!;
}
