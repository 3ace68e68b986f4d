/**
 * The API answers the tools hand back, named by operation and status. Each tool's outputSchema is
 * made from one (output-schemas.ts): `npm run client:generate` writes their JSON Schemas into
 * answer-schemas.ts from the API's description, which the API builds from the very zod schemas it
 * answers with, so a tool's promise and the API's cannot drift apart.
 */
export const ANSWERS = [
  'GET /products 200',
  'GET /products/{id} 200',
  'POST /products 201',
  'POST /uploads 201',
  'POST /hooks 200',
  'GET /avatars 200',
  'POST /avatars 201',
  'GET /music 200',
  'POST /music 201',
  'POST /videos 200',
  'POST /videos 202',
  'POST /videos/batch 202',
  'GET /videos/batches/{id} 200',
  'GET /videos/jobs 200',
  'GET /videos/jobs/{id} 200',
  'GET /videos/jobs/{id}/takes 200',
  'POST /videos/jobs/{id}/approve 202',
  'POST /videos/jobs/{id}/regenerate 202',
  'POST /reactions 201',
  'GET /reactions 200',
  'GET /videos 200',
  'GET /videos/{id} 200',
  'GET /social/connections 200',
  'POST /social/posts 201',
  'GET /usage 200',
] as const;

export type AnswerKey = (typeof ANSWERS)[number];

/**
 * What of the answer a tool returns: the whole body (`{data, meta}` of a list), or its `data` (a
 * record; a list goes under `data`, as results.ts puts it in structuredContent).
 */
export interface ToolOutput {
  answer: AnswerKey;
  part: 'body' | 'data';
}

export const answerBody = (answer: AnswerKey): ToolOutput => ({ answer, part: 'body' });
export const answerData = (answer: AnswerKey): ToolOutput => ({ answer, part: 'data' });
