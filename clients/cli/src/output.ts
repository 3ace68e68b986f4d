/**
 * What the CLI prints: short lines and tables for people, the API's data as JSON with --json, and
 * every error as one line (stderr) or one JSON object (stdout with --json).
 */
import { ApiError, type Job, type MusicTrack, type Product, type Take, type Video, type VideoBatch } from '@reaction-studio/client';

export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** All of standard input, as text (`login --key -`). */
  readStdin(): Promise<string>;
  /** Whether stderr is a terminal: the progress line is drawn only then. */
  errIsTty: boolean;
  /** Rewrites the current stderr line (no newline). */
  errRaw(text: string): void;
}

export function table(rows: readonly (readonly unknown[])[], header: readonly string[]): string {
  const cells = [header, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '-' : String(cell))))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

const minutes = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

export const musicTable = (tracks: readonly MusicTrack[]) =>
  table(
    tracks.map((t) => [t.id, t.name, minutes(t.duration_s), t.built_in ? `built-in${t.mood ? `, ${t.mood}` : ''}` : 'yours']),
    ['ID', 'NAME', 'LENGTH', 'KIND'],
  );

export const productLine = (p: Product) => `product ${p.id} "${p.name}" demo ${p.demo_video?.status ?? 'none'}`;

export const productsTable = (products: readonly Product[]) =>
  table(
    products.map((p) => [p.id, p.name, p.demo_video?.status ?? 'none', p.created_at]),
    ['ID', 'NAME', 'DEMO', 'CREATED'],
  );

export const jobLine = (j: Job) =>
  [
    `job ${j.id} ${j.status} (${j.stage}, ${j.progress}%)`,
    j.queue_position !== null ? `queue ${j.queue_position}` : null,
    j.video_id !== null ? `video ${j.video_id}` : null,
    j.preview_url ? `preview ${j.preview_url}` : null,
    j.error ? `error ${j.error.code}: ${j.error.message}` : null,
  ]
    .filter(Boolean)
    .join(' ');

export const takesTable = (takes: readonly Take[]) =>
  table(
    takes.map((t) => [t.current ? `${t.take}*` : t.take, t.options.prompt ?? t.options.avatar_id ?? '', t.options.hook_text ?? '', t.created_at, t.preview_url ?? '(gone)']),
    ['TAKE', 'PROMPT/AVATAR', 'HOOK', 'CREATED', 'PREVIEW'],
  );

export const videosTable = (videos: readonly Video[]) =>
  table(
    videos.map((v) => [v.id, v.job_id, v.product_id, `${v.duration_s}s`, `${v.width}x${v.height}`, v.created_at]),
    ['ID', 'JOB', 'PRODUCT', 'DURATION', 'SIZE', 'CREATED'],
  );

export const batchTable = (batch: VideoBatch) =>
  `batch ${batch.id}: ${JOB_STATUS_ORDER.filter((s) => batch.counts[s] > 0).map((s) => `${batch.counts[s]} ${s}`).join(', ')}\n` +
  table(
    batch.jobs.map((j) => [j.id, j.status, j.hook_text, j.video_id, j.error ? `${j.error.code}: ${j.error.message}` : null]),
    ['JOB', 'STATUS', 'HOOK', 'VIDEO', 'ERROR'],
  );

/** The order a batch's counts are told in: finished first. */
const JOB_STATUS_ORDER = ['done', 'failed', 'preview_ready', 'processing', 'queued'] as const;

/** One forwarded event: when it was raised, its type and id, and what the local URL answered. */
export const forwardedLine = (event: { id: string; type: string; created_at: string }, result: { status: number; durationMs: number } | { error: string; durationMs: number }) =>
  `${event.created_at}  ${event.type}  ${event.id}  -> ${'status' in result ? result.status : `failed: ${result.error}`} (${result.durationMs} ms)`;

export const progressLine = (j: Job) =>
  `job ${j.id}: ${j.stage} ${j.progress}%${j.queue_position !== null ? ` (queue position ${j.queue_position})` : ''}`;

interface ErrorFacts {
  message: string;
  code: string | null;
  requestId: string | null;
  param: string | null;
  docUrl: string | null;
}

function errorMessage(error: unknown): ErrorFacts {
  if (error instanceof ApiError) return { message: error.message, code: error.code, requestId: error.requestId, param: error.param, docUrl: error.docUrl };
  const code = (error as { code?: unknown } | null)?.code;
  return {
    message: error instanceof Error ? error.message : String(error),
    code: typeof code === 'string' ? code : null,
    requestId: null,
    param: null,
    docUrl: null,
  };
}

/** `error: <message> (code, field, request id)` and, on its own line, where the code is explained. */
export function errorLine(error: unknown): string {
  const { message, code, requestId, param, docUrl } = errorMessage(error);
  const detail = [code, param ? `field ${param}` : null, requestId ? `request ${requestId}` : null].filter(Boolean).join(', ');
  return `error: ${message}${detail ? ` (${detail})` : ''}${docUrl ? `\n  see ${docUrl}` : ''}`;
}

export function errorJson(error: unknown): string {
  const { message, code, requestId, param, docUrl } = errorMessage(error);
  return JSON.stringify({ error: message, code, ...(param ? { param } : {}), ...(requestId ? { request_id: requestId } : {}), ...(docUrl ? { doc_url: docUrl } : {}) });
}
