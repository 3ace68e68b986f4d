/**
 * The providers' published response shapes (test/fixtures/providers, each dated with its source)
 * as validators: `shapeProblems('fal', 'QueueStatus', body)` lists where a double's answer differs
 * from what the provider documents, empty when it conforms.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import postForMe from '../fixtures/providers/post-for-me.schema.json';
import fal from '../fixtures/providers/fal.schema.json';
import bedrockRuntime from '../fixtures/providers/bedrock-runtime.schema.json';

const DOCUMENTS = { 'post-for-me': postForMe, fal, 'bedrock-runtime': bedrockRuntime };
export type ProviderSchema = keyof typeof DOCUMENTS;

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(document: ProviderSchema, definition: string): ValidateFunction {
  const key = `${document}#/definitions/${definition}`;
  let validate = compiled.get(key);
  if (!validate) {
    if (!ajv) {
      ajv = new Ajv({ allErrors: true, strict: false });
      addFormats(ajv);
      for (const schema of Object.values(DOCUMENTS)) ajv.addSchema(schema);
    }
    if (!(definition in DOCUMENTS[document].definitions)) throw new Error(`${document} has no definition ${definition}`);
    validate = ajv.getSchema(key)!;
    compiled.set(key, validate);
  }
  return validate;
}

/** Where `value` breaks the provider's schema for `definition`, one line per problem; [] when it conforms. */
export function shapeProblems(document: ProviderSchema, definition: string, value: unknown): string[] {
  const validate = validator(document, definition);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}
