/**
 * Request bodies as the document shows them: each media type the route accepts, with the contract's
 * fields and examples. A multipart body adds the route's file parts: to the one shape, or, where the
 * fields are a discriminated union (POST /videos by method), to each shape that names the file's
 * direct upload (`reference_video` beside `reference_video_upload_id`).
 */
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import type { oas31, ZodOpenApiOperationObject } from 'zod-openapi';
import type { BodyKind, RouteBody, RouteDefinition } from '#functions/routes';
import { contractOf, keyOf } from './route-contracts';
import { REQUEST_EXAMPLES, type NamedExample } from './examples/requests';

const MEDIA_TYPES: Record<BodyKind, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

type JsonSchema = Record<string, unknown>;

const jsonSchemaOf = (schema: ZodMiniType): JsonSchema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
};

type FileRule = NonNullable<RouteBody['files']>[string];

const fileDescription = (rule: FileRule) => `${rule.description}; at most ${rule.maxBytes / 1024 / 1024} MB`;

/** A shape's text fields plus every file part of the route. */
function withFileParts(fields: JsonSchema, body: RouteBody): JsonSchema {
  const files = Object.entries(body.files ?? {});
  const required = [...((fields.required as string[] | undefined) ?? []), ...files.filter(([, rule]) => rule.required).map(([name]) => name)];
  return {
    ...fields,
    type: 'object',
    properties: {
      ...(fields.properties as Record<string, unknown>),
      ...Object.fromEntries(files.map(([name, rule]) => [name, { type: 'string', format: 'binary', description: fileDescription(rule) }])),
    },
    ...(required.length ? { required } : {}),
  };
}

/**
 * A union's shapes, each with the (optional) file parts whose direct upload it names, as components of
 * their own (`MotionVideoRequestMultipart`) so the union keeps its discriminator; the shapes that take
 * no file stay the components they are. Made once per union: a component's id is registered once.
 */
const multipartUnions = new WeakMap<ZodMiniType, ZodMiniType>();

function unionWithFileParts(union: ZodMiniType, options: z.ZodMiniObject[], body: RouteBody, discriminator: string): ZodMiniType {
  const made = multipartUnions.get(union);
  if (made) return made;
  const withFiles = options.map((option) => {
    const files = Object.entries(body.files ?? {}).filter(([name]) => `${name}_upload_id` in option.shape);
    if (files.length === 0) return option;
    const parts = Object.fromEntries(files.map(([name, rule]) => [name, z.optional(z.string().check(z.meta({ format: 'binary', description: fileDescription(rule) })))]));
    const meta = z.globalRegistry.get(option);
    const extended = z.extend(option, parts);
    if (meta?.id) z.globalRegistry.add(extended, { ...meta, id: `${meta.id}Multipart` });
    return extended;
  });
  const result = z.discriminatedUnion(discriminator, withFiles as [z.ZodMiniObject, ...z.ZodMiniObject[]]);
  multipartUnions.set(union, result);
  return result;
}

/** A multipart body: the text fields' schema plus each file part as binary. */
function multipartSchema(body: RouteBody, textFields: ZodMiniType): oas31.SchemaObject | ZodMiniType {
  const def = textFields._zod.def as { type: string; options?: z.ZodMiniObject[]; discriminator?: string };
  if (def.type === 'union' && def.options && def.discriminator) return unionWithFileParts(textFields, def.options, body, def.discriminator);
  return withFileParts(jsonSchemaOf(textFields), body) as oas31.SchemaObject;
}

const examplesOf = (named: Record<string, NamedExample> | undefined) => (named ? { examples: named } : {});

export function requestBody(route: RouteDefinition): ZodOpenApiOperationObject['requestBody'] {
  const { body } = route;
  if (!body) return undefined;
  const contract = contractOf(route);
  const examples = REQUEST_EXAMPLES[keyOf(route)];
  return {
    required: !body.optional,
    content: Object.fromEntries(
      body.accept.map((kind) => [
        MEDIA_TYPES[kind],
        kind === 'multipart'
          ? { schema: multipartSchema(body, contract.multipartFields ?? contract.fields!), ...examplesOf(examples?.multipart ?? examples?.json) }
          : { schema: contract.fields, ...examplesOf(examples?.json) },
      ]),
    ),
  };
}
