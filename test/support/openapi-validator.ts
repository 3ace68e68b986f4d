/**
 * Checks an answer of the API against its OpenAPI document (functions/openapi): the status is one the
 * operation documents, the content type one it lists for that status, the body valid against that
 * answer's schema and the required headers present. The e2e client runs every answer through it, so
 * the document cannot drift from what the service does.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ERROR_CODES, type ErrorCode } from '#domain/errors';
import { matchRoute } from '#functions/routes';
import { buildOpenApiDocument } from '#functions/openapi/document';
import { TRANSPORT_CODES } from '#functions/openapi/errors';

type Json = Record<string, any>;

export interface ObservedAnswer {
  method: string;
  /** The request's URL path (query ignored). */
  pathname: string;
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text where it was not JSON. */
  body: unknown;
}

const DOCUMENT_ID = 'openapi.json';
let state: { document: Json; ajv: Ajv2020; compiled: Map<string, ValidateFunction> } | undefined;

function load() {
  if (!state) {
    const document = buildOpenApiDocument() as Json;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    state = { document, ajv, compiled: new Map() };
  }
  return state;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function validatorAt(path: string[]): ValidateFunction {
  const { ajv, compiled } = load();
  const ref = `${DOCUMENT_ID}#/${pointer(...path)}`;
  let validate = compiled.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  return validate;
}

function resolve(value: Json): Json {
  const { document } = load();
  if (typeof value?.$ref !== 'string') return value;
  return (value.$ref as string)
    .slice(2)
    .split('/')
    .reduce<Json>((node, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** Every mismatch between the answer and the document, in words; empty when it conforms. */
export function openApiMismatches(answer: ObservedAnswer): string[] {
  const { document } = load();
  const where = `${answer.method} ${answer.pathname} → ${answer.status}`;
  const problems: string[] = [];
  const match = matchRoute(answer.method, answer.pathname);

  let responsePath: string[];
  if (match.kind === 'matched') {
    const methodKey = answer.method.toLowerCase();
    const operation = document.paths[match.route.path]?.[methodKey];
    if (!operation) return [`${where}: ${match.route.method} ${match.route.path} is a route but not in the document`];
    const documented = operation.responses[String(answer.status)];
    if (documented) responsePath = ['paths', match.route.path, methodKey, 'responses', String(answer.status)];
    else if (transportStatus(answer.status)) responsePath = ['paths', match.route.path, methodKey, 'responses', 'default'];
    else return [`${where}: the document lists ${Object.keys(operation.responses).join(', ')} for this operation, not ${answer.status}`];
  } else {
    // No operation: the HTTP layer's 404 (unknown path) or 405 (another method), in the envelope.
    const expected = match.kind === 'not_found' ? 404 : 405;
    if (answer.status !== expected && !transportStatus(answer.status)) return [`${where}: no such operation, so ${expected} was due`];
    return envelopeMismatches(answer, where);
  }

  const response = resolve(getAt(document, responsePath));
  // A 304 has no body: its validator must be the one the document promises.
  if (answer.status === 304) return answer.body === undefined && answer.headers.get('etag') ? problems : [`${where}: a 304 with a body or without ETag`];
  // A redirect documents no body, only where it goes.
  if (response.content === undefined && answer.status >= 300 && answer.status < 400) return answer.headers.get('location') ? problems : [`${where}: a redirect without Location`];
  const contentType = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const content = response.content ?? {};
  if (!Object.hasOwn(content, contentType)) {
    problems.push(`${where}: content type "${contentType}", the document lists ${Object.keys(content).join(', ') || 'none'}`);
  } else if (content[contentType].schema) {
    const validate = validatorAt([...responsePath, 'content', contentType, 'schema']);
    if (!validate(answer.body)) {
      problems.push(
        `${where}: body does not match the documented schema: ${(validate.errors ?? [])
          .slice(0, 8)
          .map((e) => `${e.instancePath || '/'} ${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`)
          .join('; ')}`,
      );
    }
  }
  for (const [name, header] of Object.entries<Json>(response.headers ?? {})) {
    if (resolve(header).required && !answer.headers.has(name)) problems.push(`${where}: required header ${name} is missing`);
  }
  if (answer.status >= 400 && contentType === 'application/json') problems.push(...codeMatchesStatus(answer, where));
  return problems;
}

const transportStatus = (status: number) => (TRANSPORT_CODES as readonly ErrorCode[]).some((code) => ERROR_CODES[code] === status);

function getAt(node: Json, path: string[]): Json {
  return path.reduce<Json>((at, part) => at?.[part], node);
}

function envelopeMismatches(answer: ObservedAnswer, where: string): string[] {
  const validate = validatorAt(['components', 'schemas', 'ErrorEnvelope']);
  if (!validate(answer.body)) return [`${where}: not the error envelope: ${JSON.stringify(validate.errors?.slice(0, 3))}`];
  return codeMatchesStatus(answer, where);
}

function codeMatchesStatus(answer: ObservedAnswer, where: string): string[] {
  const code = (answer.body as Json | undefined)?.code as ErrorCode | undefined;
  if (code === undefined || !Object.hasOwn(ERROR_CODES, code)) return [];
  return ERROR_CODES[code] === answer.status ? [] : [`${where}: code ${code} belongs to status ${ERROR_CODES[code]}`];
}

class OpenApiMismatch extends Error {
  constructor(problems: string[]) {
    super(`The answer does not match docs/openapi.json (functions/openapi):\n  ${problems.join('\n  ')}`);
    this.name = 'OpenApiMismatch';
  }
}

/** Throws OpenApiMismatch when the answer disagrees with the document. */
export function assertMatchesOpenApi(answer: ObservedAnswer): void {
  const problems = openApiMismatches(answer);
  if (problems.length > 0) throw new OpenApiMismatch(problems);
}
