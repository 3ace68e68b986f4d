/**
 * The music library through the local stack: the built-in tracks and the account's own, adding one in
 * each accepted format (made with ffmpeg here), the levelled result, the refusals (nothing left
 * behind), playing and deleting, another account's track, and jobs that name a track. Jobs are only
 * written (holdJobs): no render runs.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { BUILT_IN_TRACKS } from '#domain/sound';
import type { UploadView } from '#domain/upload-record';
import { fileArg, runFfmpeg } from '#render';
import { measureLoudness } from '#render';
import { rateLimitsOnStoppedClock } from '#test-support/clock';
import { assertMatchesOpenApi } from '#test-support/openapi-validator';
import { expectError, startTestStack, type ApiClient, type TestStack } from '#test-support/local-stack';
import { GeneratedSoundBank } from '#test-doubles/sound-bank';
const { abs, floor } = Math;

let t: TestStack;
let dir: string;
let soundBank: GeneratedSoundBank;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rs-music-e2e-'));
  t = await startTestStack({
    adjustDependencies: (built) => {
      soundBank = new GeneratedSoundBank(built.blobs);
      return rateLimitsOnStoppedClock({ ...built, sounds: soundBank });
    },
  });
});
afterAll(async () => {
  await t?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const listKeys = (prefix: string) => t.stack.dependencies.blobs.listKeys(prefix);

const halved = (bytes: Buffer) => bytes.subarray(0, floor(bytes.length / 2));

/** A tone of `seconds` (lavfi's sine, at 1/8 of full scale) turned by `db`, encoded by ffmpeg with `codec` arguments into `name`. */
async function tone(name: string, codec: readonly string[], options: { seconds?: number; db?: number; extra?: string[] } = {}): Promise<Buffer> {
  const path = join(dir, name);
  const { seconds = 6, db = -20, extra = [] } = options;
  await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', `sine=f=440:r=44100:d=${seconds}`, ...extra, '-af', `volume=${db}dB`, ...codec, '-y', fileArg(path)]);
  return readFile(path);
}

const FORMATS = [
  ['MP3', 'a.mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']],
  ['M4A (AAC)', 'a.m4a', ['-c:a', 'aac', '-b:a', '128k']],
  ['WAV', 'a.wav', ['-c:a', 'pcm_s16le']],
  ['OGG (Vorbis)', 'a.ogg', ['-c:a', 'libvorbis']],
  ['OGG (Opus)', 'a.opus', ['-c:a', 'libopus', '-b:a', '96k']],
  ['FLAC', 'a.flac', ['-c:a', 'flac']],
] as const;

function addFile(api: ApiClient, bytes: Buffer, filename: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('audio', new Blob([bytes]), filename);
  return api.send('POST', '/music', { body: form });
}

/** GET /music/{id}/audio without following it: the redirect, checked against the document. */
async function audioRedirect(key: string, id: string): Promise<Response> {
  const url = new URL(`${t.stack.apiUrl}/music/${id}/audio`);
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, redirect: 'manual' });
  const text = await res.text();
  let body: unknown = text || undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  assertMatchesOpenApi({ method: 'GET', pathname: url.pathname, status: res.status, headers: res.headers, body });
  return res;
}

/** The levelled file a track plays from, on disk. */
async function downloaded(key: string, id: string): Promise<string> {
  const redirect = await audioRedirect(key, id);
  expect(redirect.status).toBe(302);
  const file = await fetch(redirect.headers.get('location')!);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toBe('audio/mp4');
  const path = join(dir, `${id}-${Date.now()}.m4a`);
  await writeFile(path, Buffer.from(await file.arrayBuffer()));
  return path;
}

async function expectNothingStored(accountId: number, api: ApiClient) {
  expect((await api.get('/music')).body.data.filter((track: { built_in: boolean }) => !track.built_in)).toEqual([]);
  expect(await listKeys(`accounts/${accountId}/`)).toEqual([]);
}

describe('GET /music', () => {
  test('lists the built-in tracks, then the account\'s own newest first', async () => {
    const { api } = await t.newAccount();
    const empty = await api.get('/music');
    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual(
      BUILT_IN_TRACKS.map((track) => ({
        id: track.id,
        name: track.name,
        mood: track.mood,
        bpm: track.bpm,
        duration_s: track.durationS,
        built_in: true,
        preview_url: `/api/v1/music/${track.id}/audio`,
        created_at: null,
      })),
    );
    const mp3 = await tone('list.mp3', ['-c:a', 'libmp3lame']);
    const first = await addFile(api, mp3, 'First Song.mp3');
    const second = await addFile(api, mp3, 'ignored.mp3', { name: 'Second' });
    const listed = (await api.get('/music')).body.data;
    expect(listed.slice(BUILT_IN_TRACKS.length).map((track: { id: string; name: string }) => [track.id, track.name])).toEqual([
      [second.body.data.id, 'Second'],
      [first.body.data.id, 'First Song'],
    ]);
  });

  test('a built-in track plays through a redirect to its file', async () => {
    const { key } = await t.newAccount();
    const path = await downloaded(key, 'sunny-pop');
    expect((await measureLoudness(path)).integratedLufs).not.toBeNull();
    expect(soundBank.asked).toContain('sunny-pop');
    expect((await audioRedirect(key, 'no-such-track')).status).toBe(404);
  });
});

describe('POST /music', () => {
  test.each(FORMATS)('%s is accepted, transcoded to AAC in .m4a and levelled to -14 LUFS', async (_label, name, codec) => {
    const { api, key, accountId } = await t.newAccount();
    const res = await addFile(api, await tone(name, codec, { db: -10 }), name);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.stringMatching(/^t[1-9][0-9]*$/),
      name: 'a',
      mood: null,
      bpm: null,
      built_in: false,
      duration_s: expect.closeTo(6, 0),
      preview_url: `/api/v1/music/${res.body.data.id}/audio`,
      created_at: expect.any(String),
    });
    expect(await listKeys(`accounts/${accountId}/music/`)).toEqual([`accounts/${accountId}/music/${res.body.data.id.slice(1)}/audio.m4a`]);
    const path = await downloaded(key, res.body.data.id);
    const loudness = await measureLoudness(path);
    expect(abs(loudness.integratedLufs! - -14)).toBeLessThanOrEqual(1);
    expect(loudness.truePeakDbtp!).toBeLessThanOrEqual(-1);
    const { stdout } = await runFfmpegProbe(path);
    expect(stdout).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
  });

  test('a loud track is brought down with its peaks held under the ceiling', async () => {
    const { api, key } = await t.newAccount();
    const path = join(dir, 'loud.flac');
    await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', 'anoisesrc=c=pink:d=6:a=0.9:r=44100', '-ac', '2', '-c:a', 'flac', '-y', fileArg(path)]);
    const res = await addFile(api, await readFile(path), 'loud.flac');
    expect(res.status).toBe(201);
    const loudness = await measureLoudness(await downloaded(key, res.body.data.id));
    expect(abs(loudness.integratedLufs! - -14)).toBeLessThanOrEqual(1);
    expect(loudness.truePeakDbtp!).toBeLessThanOrEqual(-1);
  });

  test('a direct upload of purpose music is used by audio_upload_id, named by its file name', async () => {
    const { api, accountId } = await t.newAccount();
    const bytes = await tone('direct.mp3', ['-c:a', 'libmp3lame']);
    const created = await api.post('/uploads', { purpose: 'music', content_type: 'audio/mpeg', size_bytes: bytes.length, filename: 'Road Trip.mp3' });
    expect(created.status).toBe(201);
    const form = created.body.data as UploadView;
    const body = new FormData();
    for (const [name, value] of Object.entries(form.fields ?? {})) body.append(name, value);
    body.append('file', new Blob([bytes], { type: 'audio/mpeg' }), 'file');
    expect((await fetch(form.url, { method: form.method, body })).status).toBe(204);
    const res = await api.post('/music', { audio_upload_id: form.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Road Trip', built_in: false });
    // The upload is used: its object is gone and a second use is 409.
    expect(await listKeys(`uploads/${accountId}/`)).toEqual([]);
    expectError(await api.post('/music', { audio_upload_id: form.id }), 409, 'conflict');
  });

  test('POST /uploads refuses a music upload over 20 MB or of a video type', async () => {
    const { api } = await t.newAccount();
    expectError(await api.post('/uploads', { purpose: 'music', content_type: 'audio/mpeg', size_bytes: 20 * 1024 * 1024 + 1 }), 413, 'payload_too_large');
    expectError(await api.post('/uploads', { purpose: 'music', content_type: 'video/mp4', size_bytes: 1000 }), 415, 'unsupported_media_type');
  });

  test.each([
    ['a PNG renamed .mp3', async () => sharp({ create: { width: 64, height: 64, channels: 3, background: '#c86' } }).png().toBuffer(), 415, 'unsupported_media_type'],
    ['a text file named .mp3', async () => Buffer.from('la la la, not a song'), 415, 'unsupported_media_type'],
    ['an empty file', async () => Buffer.alloc(0), 415, 'unsupported_media_type'],
    ['a truncated MP3 (cut in half)', async () => halved(await tone('cut.mp3', ['-c:a', 'libmp3lame'], { seconds: 10 })), 422, 'invalid_media'],
    ['a truncated M4A (cut in half)', async () => halved(await tone('cut.m4a', ['-c:a', 'aac', '-movflags', '+faststart'], { seconds: 10 })), 422, 'invalid_media'],
    ['a truncated FLAC (its header only)', async () => (await tone('cut.flac', ['-c:a', 'flac'])).subarray(0, 60), 422, 'invalid_media'],
    ['11 minutes of audio', () => tone('long.mp3', ['-c:a', 'libmp3lame', '-b:a', '8k', '-ar', '8000', '-ac', '1'], { seconds: 660 }), 422, 'invalid_media'],
    [
      'a video without sound',
      async () => {
        const path = join(dir, 'video.mp4');
        await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=10:d=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-an', '-y', fileArg(path)]);
        return readFile(path);
      },
      422,
      'invalid_media',
    ],
    [
      'a video with sound',
      async () => {
        const path = join(dir, 'video-sound.mp4');
        await runFfmpeg([
          '-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=10:d=2', '-f', 'lavfi', '-i', 'sine=d=2',
          '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-y', fileArg(path),
        ]);
        return readFile(path);
      },
      422,
      'invalid_media',
    ],
    ['silence', () => tone('silence.wav', ['-c:a', 'pcm_s16le'], { db: -200 }), 422, 'invalid_media'],
  ] as const)('%s is refused and leaves nothing behind', async (_label, make, status, code) => {
    const { accountId, api } = await t.newAccount();
    const res = await addFile(api, Buffer.from(await make()), 'song.mp3');
    expectError(res, status, code);
    await expectNothingStored(accountId, api);
  });

  test('a file over 20 MB is 413', async () => {
    const { accountId, api } = await t.newAccount();
    const big = Buffer.concat([await tone('big.mp3', ['-c:a', 'libmp3lame']), Buffer.alloc(20 * 1024 * 1024)]);
    expectError(await addFile(api, big, 'big.mp3'), 413, 'payload_too_large');
    await expectNothingStored(accountId, api);
  });

  test('a file and an upload id together, or neither, are 400; so is an unknown field', async () => {
    const { api } = await t.newAccount();
    const mp3 = await tone('both.mp3', ['-c:a', 'libmp3lame']);
    expectError(await addFile(api, mp3, 'a.mp3', { audio_upload_id: '0b4f6a4e-8a52-4d39-9a5e-2f1b7d3f0c11' }), 400, 'bad_request');
    expectError(await api.post('/music', { name: 'nothing' }), 400, 'bad_request');
    expectError(await addFile(api, mp3, 'a.mp3', { mood: 'chill' }), 400, 'bad_request');
  });
});

describe('DELETE /music/{music_id}', () => {
  test('removes the track and its file; again, or from another account, is 404; a built-in one is 409', async () => {
    const owner = await t.newAccount();
    const other = await t.newAccount();
    const added = await addFile(owner.api, await tone('del.mp3', ['-c:a', 'libmp3lame']), 'del.mp3');
    const id = added.body.data.id as string;

    // Another account sees nothing of it: not listed, not playable, not deletable.
    expect((await other.api.get('/music')).body.data.map((track: { id: string }) => track.id)).not.toContain(id);
    expect((await audioRedirect(other.key, id)).status).toBe(404);
    expectError(await other.api.delete(`/music/${id}`), 404, 'not_found');

    expectError(await owner.api.delete('/music/sunny-pop'), 409, 'conflict');
    expectError(await owner.api.delete('/music/t0'), 404, 'not_found');
    expectError(await owner.api.delete('/music/NOT_AN_ID'), 400, 'bad_request');

    const res = await owner.api.delete(`/music/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id, deleted: true });
    expect(await listKeys(`accounts/${owner.accountId}/music/`)).toEqual([]);
    expectError(await owner.api.delete(`/music/${id}`), 404, 'not_found');
    expect((await audioRedirect(owner.key, id)).status).toBe(404);
  });
});

describe('jobs that name a track', () => {
  test('an account track is taken; another account\'s or a deleted one is 404 before any unit is reserved; a built-in always is', async () => {
    t.holdJobs();
    const owner = await t.newCustomer();
    const other = await t.newCustomer();
    const id = (await addFile(owner.api, await tone('job.mp3', ['-c:a', 'libmp3lame']), 'job.mp3')).body.data.id as string;
    const job = (customer: { productId: number }, musicId: string) => ({ product_id: customer.productId, method: 'prompt', prompt: 'amazed by the glow', music_id: musicId });
    const used = async (api: ApiClient) => (await api.get('/usage')).body.data.allowance.reserved as number;

    const accepted = await owner.api.post('/videos', job(owner, id));
    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toMatchObject({ sound: 'music', music_id: id });
    expect((await owner.api.post('/videos', job(owner, 'lofi-study'))).status).toBe(202);

    const before = await used(other.api);
    const foreign = await other.api.post('/videos', job(other, id));
    expectError(foreign, 404, 'not_found');
    expect(foreign.body.error).toContain('music_id');
    expectError(await other.api.post('/videos?dry_run=true', job(other, id)), 404, 'not_found');
    expectError(await other.api.post('/videos/batch', { product_id: other.productId, variants: [{ method: 'prompt', prompt: 'wow', music_id: id }] }), 404, 'not_found');
    expect(await used(other.api)).toBe(before);

    expect((await owner.api.delete(`/music/${id}`)).status).toBe(200);
    const ownerBefore = await used(owner.api);
    expectError(await owner.api.post('/videos', job(owner, id)), 404, 'not_found');
    expect(await used(owner.api)).toBe(ownerBefore);
    // The job made before the delete is still there, naming its track.
    expect((await owner.api.get(`/videos/jobs/${accepted.body.data.id}`)).body.data).toMatchObject({ music_id: id });
  });
});

/** The first stream of a file as ffprobe sees it (our own output: the mov demuxer). */
async function runFfmpegProbe(path: string): Promise<{ stdout: Record<string, unknown> }> {
  const { runFfprobe } = await import('#render');
  const { stdout } = await runFfprobe(['-v', 'error', '-print_format', 'json', '-show_streams', '-f', 'mov', '-i', fileArg(path)]);
  return { stdout: (JSON.parse(stdout) as { streams: Record<string, unknown>[] }).streams[0]! };
}
