/**
 * The API description explains itself: every operation says what it does, every body has an example
 * that its own schema accepts (and the service's parser too), every refusal shows its envelope, every
 * webhook event type is documented with its payload, and a body that varies by a field says so with
 * `oneOf` and a discriminator.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import * as z from 'zod/mini';
import { ROUTES } from '#functions/routes';
import { buildOpenApiDocument } from '#functions/openapi/document';
import { contractOf } from '#functions/openapi/route-contracts';
import { REQUEST_EXAMPLES } from '#functions/openapi/examples/requests';
import { WEBHOOK_EVENT_TYPES, PING_EVENT } from '#domain/webhooks';
import { JOB_METHODS } from '#domain/jobs';
import { ERROR_CODES, isAppError } from '#domain/errors';
import { createVideoInput, videoRequestOf } from '#domain/schemas/video';
import { createVideoBatchInput, videoVariantsOf } from '#domain/schemas/video-batch';

type Json = Record<string, any>;

const document = buildOpenApiDocument() as Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// Multipart file parts: any string stands for the file in an example.
ajv.addFormat('binary', true);
ajv.addSchema({ ...document, $id: 'openapi.json' });

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
/** Ajv's complaints about `value` against the schema at this place in the document; empty when it fits. */
function problems(value: unknown, ...path: string[]): string[] {
  const validate = ajv.getSchema(`openapi.json#/${pointer(...path)}`) ?? ajv.compile({ $ref: `openapi.json#/${pointer(...path)}` });
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${path.join(' ')}${e.instancePath} ${e.message}`);
}

const operations = ROUTES.map((route) => ({ route, method: route.method.toLowerCase(), op: document.paths[route.path][route.method.toLowerCase()] as Json }));

/** An example object, or the shared one it names (`#/components/examples/...`). */
const exampleObject = (example: Json): Json => (typeof example.$ref === 'string' ? document.components.examples[example.$ref.split('/').pop()!] : example);

/** Each example of a media type: its `example`, or the values of its `examples`. */
const examplesOf = (media: Json): [string, unknown][] => [
  ...(media.example !== undefined ? [['example', media.example] as [string, unknown]] : []),
  ...Object.entries((media.examples ?? {}) as Record<string, Json>).map(([name, e]) => [name, exampleObject(e).value] as [string, unknown]),
];

describe('the API description explains itself', () => {
  test('every operation has a summary and a description', () => {
    const bare = operations.filter(({ op }) => !op.summary?.trim() || !op.description?.trim()).map(({ route }) => `${route.method} ${route.path}`);
    expect(bare).toEqual([]);
  });

  test('every request body has an example in each media type, and each fits its schema', () => {
    const missing: string[] = [];
    const misfits: string[] = [];
    for (const { route, method, op } of operations.filter(({ op }) => op.requestBody)) {
      for (const [type, media] of Object.entries(op.requestBody.content as Record<string, Json>)) {
        const examples = examplesOf(media);
        if (examples.length === 0) missing.push(`${route.method} ${route.path} ${type}`);
        for (const [, value] of examples) misfits.push(...problems(value, 'paths', route.path, method, 'requestBody', 'content', type, 'schema'));
      }
    }
    expect(missing).toEqual([]);
    expect(misfits).toEqual([]);
  });

  test("every request example is one the service's own parser accepts", () => {
    const refused: string[] = [];
    for (const route of ROUTES.filter((r) => r.body)) {
      const contract = contractOf(route);
      const examples = REQUEST_EXAMPLES[`${route.method} ${route.path}`];
      for (const [name, { value }] of Object.entries(examples?.json ?? {})) {
        const parsed = z.safeParse(contract.fields!, value);
        if (!parsed.success) refused.push(`${route.method} ${route.path} ${name}: ${parsed.error.message}`);
      }
    }
    expect(refused).toEqual([]);
  });

  test('every JSON answer has an example that fits its schema', () => {
    const missing: string[] = [];
    const misfits: string[] = [];
    for (const { route, method, op } of operations) {
      for (const [status, answer] of Object.entries(op.responses as Record<string, Json>)) {
        const media = answer.content?.['application/json'];
        if (!media?.schema) continue;
        const examples = examplesOf(media);
        if (examples.length === 0) missing.push(`${route.method} ${route.path} ${status}`);
        for (const [, value] of examples) misfits.push(...problems(value, 'paths', route.path, method, 'responses', status, 'content', 'application/json', 'schema'));
      }
    }
    expect(missing).toEqual([]);
    expect(misfits).toEqual([]);
  });

  test("every refusal shows the envelope with an example of each code it can carry, at that code's status", () => {
    for (const { route, method, op } of operations) {
      for (const [status, answer] of Object.entries(op.responses as Record<string, Json>).filter(([s]) => /^[45]/.test(s) || s === 'default')) {
        const media = answer.content['application/json'];
        const codes: string[] = media.schema.allOf[1].properties.code.enum;
        expect(media.schema.allOf[0]).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        expect(Object.keys(media.examples).sort()).toEqual([...codes].sort());
        for (const code of codes) {
          expect(media.examples[code]).toEqual({ $ref: `#/components/examples/${code}` });
          const envelope = document.components.examples[code].value;
          expect(envelope).toMatchObject({ code, request_id: expect.any(String), doc_url: `/api/v1/docs/errors#${code}` });
          if (status !== 'default') expect(ERROR_CODES[code as keyof typeof ERROR_CODES]).toBe(Number(status));
          expect(problems(envelope, 'paths', route.path, method, 'responses', status, 'content', 'application/json', 'schema')).toEqual([]);
        }
      }
    }
  });

  test("every component's example fits it", () => {
    const misfits = Object.entries(document.components.schemas as Record<string, Json>)
      .filter(([, schema]) => schema.examples)
      .flatMap(([name, schema]) => (schema.examples as unknown[]).flatMap((value) => problems(value, 'components', 'schemas', name)));
    expect(Object.values(document.components.schemas as Record<string, Json>).filter((schema) => schema.examples).length).toBeGreaterThan(40);
    expect(misfits).toEqual([]);
  });
});

/** Every schema in the document, with where it is. */
function* schemasIn(node: unknown, at: string): Generator<[string, Json]> {
  if (Array.isArray(node)) for (const [i, item] of node.entries()) yield* schemasIn(item, `${at}/${i}`);
  else if (node && typeof node === 'object') {
    if ('enum' in node) yield [at, node as Json];
    for (const [key, value] of Object.entries(node)) yield* schemasIn(value, `${at}/${key}`);
  }
}

describe('states and stages', () => {
  const schemas = document.components.schemas;

  test.each([
    ['Job', 'status'],
    ['Job', 'stage'],
    ['DemoVideo', 'status'],
    ['Avatar', 'status'],
    ['Post', 'status'],
    ['WebhookDelivery', 'status'],
  ])("%s.%s: an enum with every value's meaning", (component, property) => {
    const schema = schemas[component].properties[property];
    expect(Object.keys(schema['x-enumDescriptions'])).toEqual(schema.enum);
    for (const value of schema.enum) expect(schema.description).toContain(`- \`${value}\`: ${schema['x-enumDescriptions'][value]}`);
  });

  test("a failed job's error code is described too, and every described enum describes exactly its values", () => {
    expect(Object.keys(schemas.Job.properties.error.anyOf[0].properties.code['x-enumDescriptions'])).toEqual(schemas.Job.properties.error.anyOf[0].properties.code.enum);
    const described = [...schemasIn(document, '#')].filter(([, schema]) => schema['x-enumDescriptions']);
    expect(described.length).toBeGreaterThanOrEqual(7);
    for (const [, schema] of described) expect(Object.keys(schema['x-enumDescriptions']).sort()).toEqual([...schema.enum].sort());
  });
});

describe('webhooks', () => {
  const types = [...WEBHOOK_EVENT_TYPES, PING_EVENT];

  test('every event type the service sends has an entry, and nothing else does', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...types].sort());
  });

  test.each(types)('%s: a signed POST of its payload, with an example that fits', (type) => {
    const entry = document.webhooks[type].post;
    expect(entry.summary).toBe(type);
    expect(entry.description).toEqual(expect.any(String));
    expect(entry.parameters.map((p: Json) => p.$ref)).toEqual(
      ['WebhookEventId', 'WebhookTimestamp', 'WebhookSignature'].map((name) => `#/components/parameters/${name}`),
    );
    const media = entry.requestBody.content['application/json'];
    const payload = document.components.schemas[media.schema.$ref.split('/').pop()];
    expect(payload.properties.type).toMatchObject({ const: type });
    expect(media.example.type).toBe(type);
    expect(problems(media.example, 'webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema')).toEqual([]);
    expect(Object.keys(entry.responses)).toContain('200');
  });

  test('the payloads name the records the answers name: no record is drawn twice (an `...Output` twin of a request-side copy)', () => {
    expect(Object.keys(document.components.schemas).filter((name) => name.endsWith('Output'))).toEqual([]);
  });

  test("an event's payload is told apart by its type: WebhookEvent is a oneOf with a discriminator, and GET /webhooks/events lists those", () => {
    const event = document.components.schemas.WebhookEvent;
    expect(event.discriminator.propertyName).toBe('type');
    expect(Object.keys(event.discriminator.mapping).sort()).toEqual([...types].sort());
    expect(event.oneOf).toHaveLength(types.length);
    expect(document.paths['/webhooks/events'].get.responses['200'].content['application/json'].schema.properties.data.items).toEqual({
      $ref: '#/components/schemas/WebhookEvent',
    });
  });
});

describe('POST /videos is one shape per method', () => {
  const body = document.paths['/videos'].post.requestBody.content;

  test.each(['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'])('%s: a oneOf told apart by method', (type) => {
    const schema = body[type].schema.$ref ? document.components.schemas[body[type].schema.$ref.split('/').pop()] : body[type].schema;
    expect(schema.discriminator.propertyName).toBe('method');
    expect(Object.keys(schema.discriminator.mapping).sort()).toEqual([...JOB_METHODS].sort());
    for (const [method, ref] of Object.entries(schema.discriminator.mapping as Record<string, string>)) {
      expect(document.components.schemas[ref.split('/').pop()!].properties.method).toMatchObject({ const: method });
    }
  });

  test('a batch variant is one shape per method too', () => {
    const items = document.paths['/videos/batch'].post.requestBody.content['application/json'].schema.properties.variants.items;
    const union = document.components.schemas[items.$ref.split('/').pop()];
    expect(Object.keys(union.discriminator.mapping).sort()).toEqual([...JOB_METHODS].sort());
  });

  /** A value the flat shape takes for every method-specific field and voice_line. */
  const ANY_FIELD: Record<string, unknown> = {
    prompt: 'She gasps',
    avatar_id: 31,
    video_source: 'link',
    reference_url: 'https://www.tiktok.com/@creator/video/7311234567890123456',
    reference_video_upload_id: '3f2b8c1e-7a4d-4e9b-9c0f-2d6a5b8e1f34',
    reaction_id: 7,
    voice_line: 'No way!',
  };

  test.each(JOB_METHODS)("%s: the shape names exactly the fields the service's rules let that method take", (method) => {
    const variant = document.components.schemas[`${method.charAt(0).toUpperCase()}${method.slice(1)}VideoRequest`];
    const example = Object.values(REQUEST_EXAMPLES['POST /videos']!.json).find((e) => (e.value as Json).method === method)!.value as Json;
    const parse = (extra: Json) => videoRequestOf(z.parse(createVideoInput, { ...example, ...extra }), false);
    expect(() => parse({})).not.toThrow();
    for (const field of Object.keys(ANY_FIELD)) {
      const refused = (() => {
        try {
          parse({ [field]: ANY_FIELD[field] });
          return false;
        } catch (error) {
          return isAppError(error) && error.code === 'bad_request' && new RegExp(`\\b${field} cannot be used with method=`).test(error.message);
        }
      })();
      // A field the shape lacks is refused for its presence by the rules; one it has is not.
      expect({ field, refused }).toEqual({ field, refused: !(field in variant.properties) });
    }
    for (const field of variant.required) expect(() => parse({ [field]: undefined })).toThrow();
  });

  test("the examples pass the service's rules: each method's, and each batch variant's", () => {
    for (const { value } of Object.values(REQUEST_EXAMPLES['POST /videos']!.json)) {
      expect(() => videoRequestOf(z.parse(createVideoInput, value), false)).not.toThrow();
    }
    for (const { value } of Object.values(REQUEST_EXAMPLES['POST /videos']!.multipart!)) {
      const { reference_video: file, ...fields } = value as Json;
      expect(() => videoRequestOf(z.parse(createVideoInput, fields), file !== undefined)).not.toThrow();
    }
    for (const { value } of Object.values(REQUEST_EXAMPLES['POST /videos/batch']!.json)) {
      expect(videoVariantsOf(z.parse(createVideoBatchInput, value))).toHaveLength((value as Json).variants.length);
    }
  });
});
