/**
 * Hostile requests: broken bodies and headers a client (or an attacker) may send. Shared by the
 * end-to-end test (test/e2e/hostile-requests.test.ts) and the standalone run (bench/hostile.ts); the
 * multipart builder is also what the body parser's unit tests frame their bodies with.
 */

export interface Part {
  /** Left out: a part with no `name` parameter. */
  name?: string;
  filename?: string;
  contentType?: string;
  value: string | Buffer;
  /** Extra raw header lines of the part. */
  headers?: string[];
}

/** A multipart/form-data body, by default well-formed; `close: false` leaves off the closing boundary. */
export function multipartBody(parts: readonly Part[], options: { boundary?: string; close?: boolean } = {}) {
  const boundary = options.boundary ?? 'hostile-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = ['form-data', part.name === undefined ? '' : `name="${part.name}"`, part.filename === undefined ? '' : `filename="${part.filename}"`]
      .filter(Boolean)
      .join('; ');
    const lines = [`--${boundary}`, `Content-Disposition: ${disposition}`];
    if (part.contentType) lines.push(`Content-Type: ${part.contentType}`);
    lines.push(...(part.headers ?? []));
    chunks.push(Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
