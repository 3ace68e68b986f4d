/**
 * The OpenAPI 3.1 description of the API, built from the route table and the zod schemas the
 * operations parse with and the views answer with: nothing in it is written twice. `npm run openapi`
 * writes it to docs/openapi.json; GET /api/v1/openapi.json serves it.
 */
import * as z from 'zod/mini';
import { createDocument, type oas31, type ZodOpenApiObject, type ZodOpenApiOperationObject, type ZodOpenApiResponseObject } from 'zod-openapi';
import { API_NAME, API_PREFIX, API_REVISION, HANDLER_GROUPS, ROUTES, type RouteDefinition } from '#functions/routes';
import { errorEnvelope } from '#domain/schemas/envelope';
import { ERROR_CODES, type ErrorCode } from '#domain/errors';
import { SECURITY_SCHEME, SESSION_SCHEME, headerRef, headers, paramRef, parameters, rateLimitHeaders, securitySchemes } from './components';
import { TRANSPORT_CODES, byStatus, routeErrorCodes } from './errors';
import { operationIdOf } from './operation-ids';
import { contractOf, type RouteContract } from './route-contracts';
import { requestBody } from './request-bodies';
import { WEBHOOK_TAG, webhookEntries, webhookParameters } from './webhooks';
import { SAMPLES, exampleOf } from './examples';
import { errorExample } from './examples/errors';

const DESCRIPTION = `Short vertical reaction videos for products: an avatar reacts under a hook caption, then the product's demo plays.

- **Auth**: \`Authorization: Bearer rsk_...\` on every route but the public ones (liveness, this document and its reference page, sign-up and sign-in), or the studio's \`rs_session\` cookie (changes with it also send \`X-CSRF-Token\`). Managing keys and the session takes the cookie: a key there is 403.
- **Errors** come in one envelope, \`{"error": message, "code": code, "param"?: field, "request_id": id, "doc_url": link}\`: \`param\` names the field at fault when one is, \`request_id\` (also every answer's \`x-request-id\` header) is what to quote to support, and \`doc_url\` is the code's entry in the error reference at \`/api/v1/docs/errors\`. Every operation lists the codes it can answer.
- **Rate limit**: per account per rolling minute, shared by its keys. Answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`; a 429 carries \`Retry-After\`.
- **Lists** of products, videos and posts are paged (\`page\`, \`per_page\`), newest first, with \`meta: {page, per_page, total}\`.
- **Bodies** may be JSON, form-encoded or (where files are taken) multipart; unknown fields are 400.
- **Polling**: authenticated GETs answer an \`ETag\`; send it back as \`If-None-Match\` and an unchanged answer is 304 with no body.
- **Idempotency-Key**: every POST that creates something (videos, batches, products, avatars, music, reactions, uploads, posts, webhooks) takes one (not POST /keys: its answer is the new key, shown once and never kept in clear); a repeat with the same key and request gets the first answer again with \`Idempotent-Replayed: true\`.
- **Versions**: the major version is in the path (\`/api/v1\`); within it changes only add. Every answer carries \`Reaction-Studio-Version\`, the date of the revision that answered (this document's \`info.version\`). A route on its way out is marked deprecated here and its answers carry \`Deprecation\` and \`Sunset\`.
- **Dry runs**: POST /videos and regenerate take \`?dry_run=true\` to check and quote without doing (200, not counted against the rate limit).`;

/** What every answer carries: its request id and the API's revision. */
const everyAnswer = { 'x-request-id': headerRef('RequestId'), 'Reaction-Studio-Version': headerRef('ApiRevision') };

/** The envelope, its `code` narrowed to what this status can carry here. */
const envelopeFor = (codes: readonly ErrorCode[]): oas31.SchemaObject => ({
  allOf: [
    { $ref: '#/components/schemas/ErrorEnvelope' },
    { type: 'object', properties: { code: { enum: [...codes], description: 'The codes this status carries here' } } },
  ],
});

function successResponses(route: RouteDefinition): Record<string, ZodOpenApiResponseObject> {
  const out: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, answer] of Object.entries(contractOf(route).responses)) {
    if (answer.redirect) {
      out[status] = {
        description: answer.description,
        headers: {
          ...everyAnswer,
          ...(route.auth !== 'none' ? rateLimitHeaders : {}),
          Location: { description: 'Where to go', required: true, schema: { type: 'string', format: 'uri' } },
        },
      };
      continue;
    }
    const contentType = answer.contentType ?? 'application/json';
    const tagged = status === '200' && isConditional(route);
    out[status] = {
      description: answer.description,
      headers: {
        ...everyAnswer,
        ...(route.auth !== 'none' ? rateLimitHeaders : {}),
        ...(tagged ? { ETag: headerRef('ETag') } : {}),
        ...(route.idempotencyKey && status.startsWith('2') ? { 'Idempotent-Replayed': headerRef('IdempotentReplayed') } : {}),
      },
      content: { [contentType]: answer.schema ? { schema: answer.schema, ...exampleField(answer.example ?? exampleOf(answer.schema)) } : {} },
    };
    if (tagged) {
      out['304'] = {
        description: 'Not modified: the answer is still the one `If-None-Match` names',
        headers: { ...everyAnswer, ...rateLimitHeaders, ETag: headerRef('ETag') },
      };
    }
  }
  return out;
}

const exampleField = (example: unknown) => (example === undefined ? {} : { example });

/** One example per code the answer can carry, named by the code: each a shared component, written once. */
const errorExamples = (codes: readonly ErrorCode[]) => Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));

/** The envelope of every code, once: what the answers' examples point to. */
const errorExampleComponents = () =>
  Object.fromEntries((Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [code, { summary: `${code} (${ERROR_CODES[code]})`, value: errorExample(code) }]));

/** Authenticated GETs answering JSON take If-None-Match (functions/http/middleware/conditional-get.ts). */
function isConditional(route: RouteDefinition): boolean {
  const ok = contractOf(route).responses['200'];
  return route.method === 'GET' && route.auth !== 'none' && ok !== undefined && !ok.redirect && (ok.contentType ?? 'application/json') === 'application/json';
}

function errorResponses(route: RouteDefinition): Record<string, ZodOpenApiResponseObject> {
  const out: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, codes] of byStatus(routeErrorCodes(route))) {
    // Refusals before the rate limit ran (a bad key, a body refused by its length) carry no counters.
    const limited = route.auth !== 'none' && status === 429;
    const retry = status === 429 || status === 503;
    out[String(status)] = {
      description: codes.map((code) => `\`${code}\``).join(', '),
      headers: {
        ...everyAnswer,
        ...(limited ? rateLimitHeaders : {}),
        ...(retry ? { 'Retry-After': status === 429 ? { ...headers.RetryAfter, required: true } : headerRef('RetryAfter') } : {}),
      },
      content: { 'application/json': { schema: envelopeFor(codes), examples: errorExamples(codes) } },
    };
  }
  return out;
}

const transportRefusal: ZodOpenApiResponseObject = {
  description:
    'Refused by the HTTP layer before the operation runs: a malformed request (400), another method on this path (405, with `Allow`), ' +
    'a body not received in time (408) or over the route\'s limit (413), a large body that is not multipart (415), an `Expect` other than 100-continue (417), headers too large (431).',
  headers: { ...everyAnswer, Allow: headerRef('Allow') },
  content: { 'application/json': { schema: envelopeFor(TRANSPORT_CODES), examples: errorExamples(TRANSPORT_CODES) } },
};

function parametersOf(route: RouteDefinition) {
  const list = [];
  if (route.path.includes('{id}')) list.push(paramRef('Id'));
  if (route.path.includes('{provider}')) list.push(paramRef('Provider'));
  if (route.path.includes('{webhook_id}')) list.push(paramRef('WebhookId'));
  if (route.path.includes('{delivery_id}')) list.push(paramRef('DeliveryId'));
  if (route.path.includes('{music_id}')) list.push(paramRef('MusicId'));
  if (route.path.includes('{ticket}')) list.push(paramRef('CallbackTicket'));
  if (route.query?.includes('page')) list.push(paramRef('Page'), paramRef('PerPage'));
  if (route.query?.includes('before')) list.push(paramRef('Limit'), paramRef('Before'));
  if (route.query?.includes('after')) list.push(paramRef('Limit'), paramRef('After'));
  if (route.query?.includes('days')) list.push(paramRef('Days'));
  if (route.query?.includes('dry_run')) list.push(paramRef('DryRun'));
  if (route.idempotencyKey) list.push(paramRef('IdempotencyKey'));
  if (isConditional(route)) list.push(paramRef('IfNoneMatch'));
  return list;
}

/** Public routes need nothing; studio-only ones the session cookie; the rest a key with the scopes, or the cookie. */
function securityOf(route: RouteDefinition): Record<string, string[]>[] {
  if (route.auth === 'none') return [];
  if (route.auth === 'session') return [{ [SESSION_SCHEME]: [] }];
  return [{ [SECURITY_SCHEME]: [...route.scopes] }, { [SESSION_SCHEME]: [] }];
}

/** A deprecated route says when it goes and what replaces it, before the rest of its description. */
function describe(route: RouteDefinition, contract: RouteContract): string {
  const notice = route.deprecated
    ? `**Deprecated** since ${route.deprecated.since}, gone after ${route.deprecated.sunset} (answers carry \`Deprecation\` and \`Sunset\`): ${route.deprecated.instead}.`
    : '';
  return [notice, contract.description ?? ''].filter(Boolean).join('\n\n');
}

function operation(route: RouteDefinition): ZodOpenApiOperationObject {
  const contract = contractOf(route);
  return {
    operationId: operationIdOf(route),
    tags: [route.group],
    summary: contract.summary,
    ...(contract.description || route.deprecated ? { description: describe(route, contract) } : {}),
    ...(route.deprecated ? { deprecated: true } : {}),
    // OpenAPI 3.1 lets a non-OAuth requirement name roles: here, the key scopes the route needs.
    security: securityOf(route),
    ...(parametersOf(route).length ? { parameters: parametersOf(route) } : {}),
    ...(route.body ? { requestBody: requestBody(route) } : {}),
    responses: { ...successResponses(route), ...errorResponses(route), default: transportRefusal },
  } as ZodOpenApiOperationObject;
}

/** Each record schema's sample as its component's example too, where the document names it. */
function withComponentExamples<D extends { components?: { schemas?: Record<string, unknown> } }>(document: D): D {
  const schemas = document.components?.schemas ?? {};
  for (const { schema, value } of SAMPLES) {
    const id = z.globalRegistry.get(schema)?.id;
    const component = id === undefined ? undefined : (schemas[id] as oas31.SchemaObject | undefined);
    if (component) component.examples = [value];
  }
  return document;
}

export function buildOpenApiDocument() {
  const paths: NonNullable<ZodOpenApiObject['paths']> = {};
  for (const route of ROUTES) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route) };
  }
  return withComponentExamples(createDocument({
    openapi: '3.1.0',
    // The major version is in the path (servers); info.version is v1's revision, as every answer's Reaction-Studio-Version says.
    info: { title: API_NAME, version: API_REVISION, description: DESCRIPTION },
    servers: [{ url: API_PREFIX, description: 'This host' }],
    tags: [...Object.entries(HANDLER_GROUPS).map(([name, group]) => ({ name, description: group.description })), WEBHOOK_TAG],
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
    webhooks: webhookEntries(),
    components: {
      securitySchemes: securitySchemes as never,
      parameters: { ...parameters, ...webhookParameters } as never,
      headers: headers as never,
      examples: errorExampleComponents(),
      schemas: { ErrorEnvelope: errorEnvelope },
    },
  }));
}
