/**
 * POST /captions/preview draws the caption with the videos' own renderer, so what the studio shows is
 * what the video gets: the same layer, byte for byte, that Compose draws for the same inputs, and
 * the finished video shows exactly that layer.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { captionOf } from '#domain/jobs';
import { renderCaptionPng, typicalFaceBox } from '#render';
import { expectError, startTestStack, type TestStack } from '#test-support/local-stack';
import { download, frameAt, layerMatch, waitForJob } from '#test-support/jobs';
import { makeTempDir } from '#test-support/media-fixtures';

let t: TestStack;
let dir: string;
beforeAll(async () => {
  // Real renders: the job's reaction is drawn by the local engine, which reports where the face is.
  t = await startTestStack({ renders: 'real' });
  dir = await makeTempDir('caption-preview-');
});
afterAll(async () => {
  await t?.stop();
  await fsp.rm(dir, { recursive: true, force: true });
});

/** The endpoint's answer as bytes (the JSON helper would read a PNG as text). */
async function preview(key: string, body: unknown): Promise<{ status: number; type: string | null; png: Buffer }> {
  const response = await fetch(`${t.stack.apiUrl}/captions/preview`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), png: Buffer.from(await response.arrayBuffer()) };
}

describe('POST /captions/preview', () => {
  test('a transparent 1080x1920 PNG: the layer the renderer draws, clear of a typical face when no job is named', async () => {
    const { key } = await t.newAccount();
    const caption = { text: 'Wait for it… this changed everything 😱', position: 'middle', size: 'large', style: 'highlight' } as const;
    const res = await preview(key, caption);
    expect(res.status).toBe(200);
    expect(res.type).toBe('image/png');
    const meta = await sharp(res.png).metadata();
    expect([meta.width, meta.height, meta.channels]).toEqual([1080, 1920, 4]);
    expect(res.png.equals((await renderCaptionPng({ ...caption, avoid: typicalFaceBox() })).png)).toBe(true);
    // Defaults as POST /videos: top, medium, outline.
    const plain = await preview(key, { text: 'Hook' });
    expect(plain.png.equals((await renderCaptionPng({ text: 'Hook', position: 'top', size: 'medium', style: 'outline', avoid: typicalFaceBox() })).png)).toBe(true);
  });

  test('a read-only key may preview; no key is 401', async () => {
    const { key } = await t.newAccount({ scopes: ['read'] });
    expect((await preview(key, { text: 'Hook' })).status).toBe(200);
    const res = await fetch(`${t.stack.apiUrl}/captions/preview`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"Hook"}' });
    expect(res.status).toBe(401);
  });

  test.each([
    ['no text', {}],
    ['blank text', { text: '   ' }],
    ['text over 100 characters', { text: 'x'.repeat(101) }],
    ['a control character', { text: 'Hook\u0007' }],
    ['an unknown style', { text: 'Hook', style: 'comic' }],
    ['an unknown position', { text: 'Hook', position: 'left' }],
    ['an unknown field', { text: 'Hook', font: 'Comic Sans' }],
    ['a job_id that is not an id', { text: 'Hook', job_id: 'abc' }],
  ])('%s is 400 in the error envelope', async (_label, body) => {
    const { api } = await t.newAccount();
    expectError(await api.post('/captions/preview', body), 400, 'bad_request');
  });

  test('a body over 4 KB is refused before it is read; another account’s job is 404', async () => {
    const owner = await t.newAccount();
    const stranger = await t.newAccount();
    expectError(await stranger.api.post('/captions/preview', { text: 'Hook', pad: 'x'.repeat(5000) }), 413, 'payload_too_large');
    const job = (await owner.api.post('/videos', { product_id: (await owner.api.post('/products', { name: 'Mine' })).body.data.id, method: 'prompt', mode: 'preview', prompt: 'shocked' })).body.data;
    expectError(await stranger.api.post('/captions/preview', { text: 'Hook', job_id: job.id }), 404, 'not_found');
  });

  test('for a job, the very layer its video gets: equal to what Compose draws, and what the finished video shows', async () => {
    const { accountId, key, api } = await t.newAccount();
    const product = (await api.post('/products', { name: 'Glow Serum' })).body.data;
    const created = await api.post('/videos', { product_id: product.id, method: 'prompt', mode: 'preview', prompt: 'shocked by the price', hook_text: 'Wait for it', hook_position: 'middle', hook_size: 'large' });
    expect(created.status).toBe(202);
    await waitForJob(api, created.body.data.id, ['preview_ready']);
    // The caption the studio would offer when approving with a new look.
    const look = { text: 'Wait for it… 😱', position: 'middle', size: 'large', style: 'box' } as const;
    const res = await preview(key, { ...look, job_id: created.body.data.id });
    expect(res.status).toBe(200);
    // Compose draws captionOf(job) once the approve has written the look: the same bytes.
    const stored = (await t.stack.dependencies.jobs.get(accountId, created.body.data.id))!;
    expect(stored.reaction?.face_box).toEqual({ x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) });
    const composed = captionOf({ ...stored, hook_text: look.text, hook_position: look.position, hook_size: look.size, hook_style: look.style })!;
    expect(res.png.equals((await renderCaptionPng(composed)).png)).toBe(true);

    const approved = await api.post(`/videos/jobs/${created.body.data.id}/approve`, { hook_text: look.text, hook_style: look.style });
    expect(approved.status).toBe(202);
    const { job } = await waitForJob(api, created.body.data.id, ['done']);
    expect(job).toMatchObject({ hook_style: 'box', hook_duration: 'reaction', hook_position: 'middle' });
    const video = (await api.get(`/videos/${job.video_id}`)).body.data;
    const file = path.join(dir, 'video.mp4');
    await download(video.url, file);
    expect(await layerMatch(await frameAt(file, 1), res.png)).toBeGreaterThan(0.9);
  }, 180_000);
});
