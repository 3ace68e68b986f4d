/** GenerateReaction over engine doubles: what it asks the engines for and what it records. */
import sharp from 'sharp';
import { createLocalEngine } from '#adapters/engines/local/engine';
import { motionSource, photoRenderer } from '#render';
import { generateReaction } from '#pipeline/tasks/generate-reaction';
import { markFailed } from '#pipeline/tasks/mark-failed';
import { prepare } from '#pipeline/tasks/prepare';
import { awaitProvider } from '#pipeline/tasks/await-provider';
import { EngineError, ProviderPending, type AvatarEngine, type AvatarRef, type GenerationOptions, type ReactionClip, type ReactionEngine } from '#ports/engine';
import type { Engines } from '#ports/engines';
import { readFileSync } from 'node:fs';
import { captionOf, jobObjectKeys, jobObjectPrefix, type FrameBox } from '#domain/jobs';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';
import { JOB_STATE } from '#domain/job-states';
import { REFERENCE_CLIP_LIMITS } from '#ports/reference-resolver';
import { referenceResolver } from '#test-doubles/references';
import { faceFinder, FOUND_BOX } from '#test-doubles/faces';
import { FACELESS_RETRIES, retrySeed } from '#pipeline/tasks/reaction-face';
import { FaceCheckUnavailable, type FaceFinder } from '#ports/face-finder';
import type { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';
import { STOCK_AVATARS } from '#domain/stock-avatars';
import { isIllustratedRig } from '#render';

interface Call {
  kind: 'prompt' | 'motion';
  avatar: { id: number; imageKey: string };
  prompt?: string;
  referenceKey?: string;
  options: GenerationOptions;
}

function engines(answer: (call: Call) => Promise<ReactionClip> | ReactionClip = (call) => clipAt(call.options.outputKey)) {
  const calls: Call[] = [];
  const reaction: ReactionEngine = {
    name: 'double',
    reactionFromPrompt: async (avatar, prompt, options) => {
      const call: Call = { kind: 'prompt', avatar, prompt, options };
      calls.push(call);
      return answer(call);
    },
    reactionFromMotion: async (avatar, referenceKey, options) => {
      const call: Call = { kind: 'motion', avatar, referenceKey, options };
      calls.push(call);
      return answer(call);
    },
  } as ReactionEngine;
  const avatar = {
    name: 'double',
    avatarFromPrompt: async (_prompt: string, options: { outputKey: string }) => ({
      image: { key: options.outputKey, contentType: 'image/png', sizeBytes: 1 },
      width: 720,
      height: 1280,
      rig: null,
    }),
  } as unknown as AvatarEngine;
  const ports = { reaction: async () => reaction, avatar: async () => avatar } as unknown as Engines;
  return { ports, calls };
}

/** Where an engine that draws the face itself (the local one) says it drew it. */
const ENGINE_FACE = { x: 380, y: 650, width: 320, height: 300 };

const clipAt = (key: string, captioned: ReactionClip['captioned'] = null): ReactionClip => ({
  video: { key, contentType: 'video/mp4', sizeBytes: 10 },
  durationS: 4,
  width: 1080,
  height: 1920,
  fps: 30,
  seed: 42,
  emotion: 'shocked',
  engine: 'double',
  captioned,
  faceBox: ENGINE_FACE,
});

describe('generate_reaction', () => {
  test('an auto prompt job without an avatar: a portrait is drawn, then the clip made with the caption burnt in and a poster', async () => {
    const e = engines((call) => clipAt(call.options.outputKey, call.options.caption ?? null));
    const w = pipelineWorld({ engines: e.ports });
    const job = await w.queuedJob({ hookText: 'POV: it works' });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    const keys = jobObjectKeys(ACCOUNT, job.id, 0);
    expect(e.calls).toHaveLength(1);
    expect(e.calls[0]).toMatchObject({ kind: 'prompt', prompt: 'OMG', avatar: { id: 0, imageKey: `${keys.reaction}.avatar.png` } });
    expect(e.calls[0]!.options).toMatchObject({ seed: 42, outputKey: keys.reaction, caption: { text: 'POV: it works' }, posterKey: keys.poster });
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({
      status: 'processing',
      stage: 'generating_reaction',
      resume_at: JOB_STATE.GenerateReaction,
      reaction: { key: keys.reaction, duration_s: 4, emotion: 'shocked', engine: 'double', seed: 42, captioned: { text: 'POV: it works' } },
    });
  });

  test('the face box the engine reports is kept with the reaction, for captions drawn later', async () => {
    const face = { x: 380, y: 650, width: 320, height: 300 };
    const e = engines((call) => ({ ...clipAt(call.options.outputKey), faceBox: face }));
    const w = pipelineWorld({ engines: e.ports });
    const job = await w.queuedJob({ mode: 'preview', hookText: 'POV' });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.reaction?.face_box).toEqual(face);
  });

  test('a preview job gets a clean clip: it may be saved, reused or re-captioned', async () => {
    const e = engines();
    const w = pipelineWorld({ engines: e.ports });
    const job = await w.queuedJob({ mode: 'preview', hookText: 'POV' });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(e.calls[0]!.options).toMatchObject({ caption: null, posterKey: undefined });
  });

  test('a reuse job passes through with the saved clip prepare recorded: no engine call, nothing rewritten', async () => {
    const e = engines();
    const w = pipelineWorld({ engines: e.ports });
    const saved = await w.savedReaction({ clip_key: 'saved.mp4', duration_s: 4, emotion: 'shocked' });
    const job = await w.queuedJob({ method: 'reuse', reactionId: saved.id, prompt: null });
    await prepare(w.payload(job, 'prepare'), w.deps);
    const prepared = await w.jobs.get(ACCOUNT, job.id);
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(e.calls).toHaveLength(0);
    expect(await w.jobs.get(ACCOUNT, job.id)).toEqual(prepared);
  });

  test('a retryable engine failure is retried by the machine (Job.Retryable); an invalid input is final', async () => {
    const w1 = pipelineWorld({ engines: engines(() => Promise.reject(new EngineError('provider_unavailable', 'busy'))).ports });
    const busy = await w1.queuedJob();
    await expect(generateReaction(w1.payload(busy, 'generate_reaction'), w1.deps)).rejects.toMatchObject({ name: 'Job.Retryable', code: 'generation_failed' });

    const w2 = pipelineWorld({ engines: engines(() => Promise.reject(new EngineError('invalid_input', 'no face'))).ports });
    const bad = await w2.queuedJob();
    await expect(generateReaction(w2.payload(bad, 'generate_reaction'), w2.deps)).rejects.toMatchObject({ name: 'Job.Failed', code: 'invalid_input', detail: 'no face' });
  });

  test('a motion job with an uploaded clip animates its avatar with it', async () => {
    const e = engines();
    const w = pipelineWorld({ engines: e.ports });
    const avatar = await w.avatar({ image_key: 'a.png' });
    const job = await w.queuedJob({ method: 'motion', avatarId: avatar.id, prompt: null, videoSource: 'upload' });
    await w.jobs.update(ACCOUNT, job.id, { reference_key: 'ref.mp4' });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(e.calls[0]).toMatchObject({ kind: 'motion', referenceKey: 'ref.mp4', avatar: { id: avatar.id, imageKey: 'a.png' } });
  });

  test.each(['prompt', 'motion'] as const)(
    'a %s job naming a stock avatar hands the engine its illustrated rig (what the offline engine animates) and its portrait, drawn into the store first (what a hosted engine is sent)',
    async (method) => {
      const e = engines();
      const w = pipelineWorld({ engines: e.ports });
      const deps = { ...w.deps, stockAvatars: new BlobStockAvatars(w.blobs, async () => Buffer.from('portrait')) };
      const stock = STOCK_AVATARS[1]!;
      const job = await w.queuedJob(method === 'prompt' ? { avatarId: stock.id, prompt: 'shocked' } : { method, avatarId: stock.id, prompt: null, videoSource: 'upload' });
      if (method === 'motion') await w.jobs.update(ACCOUNT, job.id, { reference_key: 'ref.mp4' });
      await generateReaction(w.payload(job, 'generate_reaction'), deps);
      expect(e.calls).toHaveLength(1);
      const avatar = e.calls[0]!.avatar as AvatarRef;
      expect(avatar).toMatchObject({ id: stock.id, source: 'prompt', prompt: stock.prompt, width: 1024, height: 1024 });
      expect(isIllustratedRig(avatar.rig)).toBe(true);
      expect((w.blobs as MemoryBlobStore).objects.get(avatar.imageKey)?.data.toString()).toBe('portrait');
    },
  );

  test('a motion job whose link was fetched and judged at the door renders that stored clip: the link is not fetched again', async () => {
    const e = engines();
    // The world's resolver is unwired: any fetch would throw.
    const w = pipelineWorld({ engines: e.ports });
    const avatar = await w.avatar({ image_key: 'a.png' });
    const job = await w.queuedJob({ method: 'motion', avatarId: avatar.id, prompt: null, videoSource: 'link', referenceUrl: 'https://v16m.tiktokcdn.com/face.mp4' });
    await w.jobs.update(ACCOUNT, job.id, { reference_key: 'checked-at-the-door.mp4' });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(e.calls[0]).toMatchObject({ kind: 'motion', referenceKey: 'checked-at-the-door.mp4' });
  });

  test('a job written before links were fetched at the door (a link, no stored clip) has it fetched now, stored and kept', async () => {
    const e = engines();
    const link = 'https://v16m.tiktokcdn.com/face.mp4';
    const references = referenceResolver({ [link]: 'linked bytes' });
    const w = pipelineWorld({ engines: e.ports, references });
    const avatar = await w.avatar({ image_key: 'a.png' });
    const job = await w.queuedJob({ method: 'motion', avatarId: avatar.id, prompt: null, videoSource: 'link', referenceUrl: link });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    const key = jobObjectKeys(ACCOUNT, job.id, 0).reference;
    expect(references.calls).toEqual([{ url: link, options: expect.objectContaining(REFERENCE_CLIP_LIMITS) }]);
    expect(e.calls[0]).toMatchObject({ kind: 'motion', referenceKey: key });
    expect(w.blobs.objects.get(key)?.data.toString()).toBe('linked bytes');
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ video_source: 'link', reference_url: link, reference_key: key });
  });
});

describe('an avatar whose photo shows no face (stored before uploads were checked for one)', () => {
  test('the local engine fails the job with a message saying so; MarkFailed releases its unit: nothing is charged', async () => {
    // The engine keeps its files in the world's blob store, which the world makes.
    const w = pipelineWorld({ engines: { reaction: async () => local } as unknown as Engines });
    const local: ReactionEngine = createLocalEngine({ photo: photoRenderer, motion: motionSource, blobs: w.blobs });
    const deps = w.deps;
    const grey = await sharp({ create: { width: 800, height: 800, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toBuffer();
    await w.blobs.putBuffer('old-upload.png', grey, 'image/png');
    const avatar = await w.avatar({ image_key: 'old-upload.png', width: 800, height: 800 });
    const job = await w.queuedJob({ avatarId: avatar.id, prompt: 'shocked' });

    const failure = await generateReaction(w.payload(job, 'generate_reaction'), deps).catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'Job.Failed', code: 'invalid_input', detail: expect.stringMatching(/could not find a face/) });

    const caught = { Error: (failure as Error).name, Cause: (failure as Error).message };
    await markFailed(w.payload(job, 'mark_failed', { failure: caught }), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', charged_units: 0, error: { code: 'invalid_input', message: expect.stringMatching(/could not find a face/) } });
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 0, reserved: 0 });
  }, 60_000);
});

describe("a hosted engine's clip, which comes without a face box", () => {
  /** An engine like fal's: it stores the clip and says nothing of where the face is. */
  function hosted(blobs: () => MemoryBlobStore) {
    return engines(async (call) => {
      await blobs().putBuffer(call.options.outputKey, Buffer.from(`clip for seed ${call.options.seed}`), 'video/mp4');
      const { faceBox: _unknown, ...clip } = clipAt(call.options.outputKey);
      return { ...clip, engine: 'fal', seed: call.options.seed };
    });
  }

  /** A finder that answers in turn (the last answer again once the list runs out), and the clips it was shown. */
  function finder(...answers: (FrameBox | null | Error)[]) {
    const shown: string[] = [];
    const faces: FaceFinder = {
      ...faceFinder(),
      faceBoxInClip: async (path) => {
        shown.push(readFileSync(path, 'utf8'));
        const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    return { faces, shown };
  }

  function world(faces: FaceFinder) {
    // The engine writes into the world's blob store, which the world makes.
    const e = hosted(() => w.blobs);
    const w = pipelineWorld({ engines: e.ports, faces });
    return { w, e };
  }

  test('the face is looked for on the stored clip, and its box kept as the reaction\'s face_box, which the caption avoids', async () => {
    const f = finder(FOUND_BOX);
    const { w, e } = world(f.faces);
    const job = await w.queuedJob({ hookText: 'POV: it works' });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(e.calls).toHaveLength(1);
    expect(f.shown).toEqual(['clip for seed 42']);
    const stored = await w.jobs.get(ACCOUNT, job.id);
    expect(stored?.reaction).toMatchObject({ engine: 'fal', seed: 42, face_box: FOUND_BOX, captioned: null });
    expect(captionOf(stored!)).toMatchObject({ text: 'POV: it works', avoid: FOUND_BOX });
  });

  test('a box the engine reports is not looked for again', async () => {
    const f = finder(FOUND_BOX);
    const w = pipelineWorld({ engines: engines().ports, faces: f.faces });
    const job = await w.queuedJob();
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(f.shown).toEqual([]);
    expect((await w.jobs.get(ACCOUNT, job.id))?.reaction?.face_box).toEqual(ENGINE_FACE);
  });

  test('a faceless clip is generated once more under another seed; a face then is kept with that seed', async () => {
    const f = finder(null, FOUND_BOX);
    const { w, e } = world(f.faces);
    const job = await w.queuedJob();
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    const second = retrySeed(42, 1);
    expect(second).not.toBe(42);
    expect(e.calls.map((call) => call.options.seed)).toEqual([42, second]);
    expect(f.shown).toEqual(['clip for seed 42', `clip for seed ${second}`]);
    expect((await w.jobs.get(ACCOUNT, job.id))?.reaction).toMatchObject({ seed: second, face_box: FOUND_BOX });
  });

  test('a prompt job without an avatar draws its portrait again with the new seed too: a faceless portrait makes faceless clips', async () => {
    const f = finder(null, FOUND_BOX);
    const { w, e } = world(f.faces);
    const drawn: number[] = [];
    const avatar = await (e.ports.avatar as () => Promise<{ avatarFromPrompt: (p: string, o: GenerationOptions) => Promise<unknown> }>)();
    const draw = avatar.avatarFromPrompt;
    avatar.avatarFromPrompt = async (prompt, options) => (drawn.push(options.seed), draw(prompt, options));
    const job = await w.queuedJob();
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(drawn).toEqual([42, retrySeed(42, 1)]);
  });

  test(`no face after ${FACELESS_RETRIES + 1} clips: the job fails with no_face_in_result, and MarkFailed releases its unit: nothing is charged`, async () => {
    const f = finder(null);
    const { w, e } = world(f.faces);
    const job = await w.queuedJob();
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 0, reserved: 1 });

    const failure = await generateReaction(w.payload(job, 'generate_reaction'), w.deps).catch((error: unknown) => error);
    expect(e.calls).toHaveLength(FACELESS_RETRIES + 1);
    expect(failure).toMatchObject({ name: 'Job.Failed', code: 'no_face_in_result', detail: expect.stringMatching(/none showed a face; nothing was charged/) });

    const caught = { Error: (failure as Error).name, Cause: (failure as Error).message };
    await markFailed(w.payload(job, 'mark_failed', { failure: caught }), w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ status: 'failed', charged_units: 0, reaction: null, error: { code: 'no_face_in_result' } });
    expect(await w.ledger.periodUsage(ACCOUNT, w.period())).toEqual({ used: 0, reserved: 0 });
    expect(await w.blobs.listKeys(jobObjectPrefix(ACCOUNT, job.id))).toEqual([]);
  });

  test('a face check that cannot answer now is retried by the machine (Job.Retryable), never taken for a face or for none', async () => {
    const f = finder(new FaceCheckUnavailable('throttled'));
    const { w } = world(f.faces);
    const job = await w.queuedJob();
    await expect(generateReaction(w.payload(job, 'generate_reaction'), w.deps)).rejects.toMatchObject({ name: 'Job.Retryable', code: 'generation_failed' });
    expect((await w.jobs.get(ACCOUNT, job.id))?.reaction).toBeNull();
  });

  test('any other failure of the face finder fails the step as a generation failure of ours', async () => {
    const f = finder(new Error('the face-check function answered outside its contract'));
    const { w } = world(f.faces);
    const job = await w.queuedJob();
    await expect(generateReaction(w.payload(job, 'generate_reaction'), w.deps)).rejects.toMatchObject({ name: 'Job.Failed', code: 'generation_failed' });
  });
});

describe('the provider requests a hosted engine submits are kept on the job (a retried step reattaches)', () => {
  const REQUEST = { requestId: 'r-1', statusUrl: 'https://queue.example/r-1/status', responseUrl: 'https://queue.example/r-1', cancelUrl: 'https://queue.example/r-1/cancel' };

  test('a request remembered by a run whose process died is recalled by the next run of the step', async () => {
    let first = true;
    let dying!: () => void;
    const recalled: unknown[] = [];
    const e = engines(async (call) => {
      if (first) {
        first = false;
        await call.options.requests!.remember('kling#42', REQUEST);
        // The process is gone from here on: this run never answers (released at the end of the test).
        await new Promise<void>((resolve) => (dying = resolve));
        return clipAt(call.options.outputKey);
      }
      recalled.push(await call.options.requests!.recall('kling#42'));
      return clipAt(call.options.outputKey);
    });
    const w = pipelineWorld({ engines: e.ports });
    const job = await w.queuedJob();
    const died = generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    await until(async () => (await w.jobs.get(ACCOUNT, job.id))?.provider_requests != null);
    expect((await w.jobs.get(ACCOUNT, job.id))?.provider_requests).toEqual({ round: 0, slots: { 'kling#42': REQUEST } });

    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(recalled).toEqual([REQUEST]);
    dying();
    await died;
  });

  test('requests remembered side by side (the reaction and its speech) are both kept', async () => {
    const e = engines(async (call) => {
      const log = call.options.requests!;
      await Promise.all([log.remember('kling#42', REQUEST), log.remember('kokoro#42', { ...REQUEST, requestId: 'r-2' })]);
      await log.forget('kling#42');
      return clipAt(call.options.outputKey);
    });
    const w = pipelineWorld({ engines: e.ports });
    const job = await w.queuedJob();
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.provider_requests).toEqual({ round: 0, slots: { 'kokoro#42': { ...REQUEST, requestId: 'r-2' } } });
  });

  test("a regenerated round never reattaches to the last round's requests", async () => {
    const recalled: unknown[] = [];
    const e = engines(async (call) => {
      recalled.push(await call.options.requests!.recall('kling#42'));
      return clipAt(call.options.outputKey);
    });
    const w = pipelineWorld({ engines: e.ports });
    const job = await w.queuedJob({ mode: 'preview' });
    await w.jobs.update(ACCOUNT, job.id, { regenerations: 1, provider_requests: { round: 0, slots: { 'kling#42': REQUEST } } });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    expect(recalled).toEqual([null]);
  });
});

describe('waiting by callback: a hosted engine that calls back, on a stack with an address for webhooks', () => {
  const CALLBACKS = { providerCallbackUrl: () => 'https://api.example' };
  /** A hosted engine that keeps its request and answers pending the first `pendingCalls` times. */
  function callingBack(pendingCalls = 1) {
    let calls = 0;
    const e = engines(async (call) => {
      calls += 1;
      await call.options.requests!.remember('kling#42', { requestId: 'r-1', statusUrl: 'https://q/s', responseUrl: 'https://q/r', cancelUrl: 'https://q/c' });
      if (calls <= pendingCalls) throw new ProviderPending(['r-1']);
      return { ...clipAt(call.options.outputKey), faceBox: null };
    });
    return { ...e, ports: { ...e.ports, reaction: async () => Object.assign(await e.ports.reaction({} as never), { callsBack: true }) } as Engines };
  }

  test('the step keeps a secret for the round before submitting, hands the engine the webhook URL, and answers awaiting_provider', async () => {
    const e = callingBack();
    const w = pipelineWorld({ engines: e.ports, ...CALLBACKS });
    const job = await w.queuedJob();
    expect(await generateReaction(w.payload(job, 'generate_reaction'), w.deps)).toEqual({ awaiting_provider: true });
    const stored = await w.jobs.get(ACCOUNT, job.id);
    expect(stored?.provider_wait).toEqual({ round: 0, secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), token: null });
    expect(e.calls[0]!.options.callback).toEqual({ webhookUrl: `https://api.example/api/v1/engines/fal/callbacks/${ACCOUNT}.${job.id}.${stored!.provider_wait!.secret}` });
    expect(stored).toMatchObject({ status: 'processing', reaction: null, provider_requests: { round: 0, slots: { 'kling#42': { requestId: 'r-1' } } } });
  });

  test('the entry after the webhook keeps the round\'s secret and records the clip; a new round draws a new secret', async () => {
    const e = callingBack();
    const w = pipelineWorld({ engines: e.ports, ...CALLBACKS });
    const job = await w.queuedJob({ mode: 'preview' });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    const { secret } = (await w.jobs.get(ACCOUNT, job.id))!.provider_wait!;
    await w.jobs.update(ACCOUNT, job.id, { provider_wait: { round: 0, secret, token: 'spent-token' } });
    expect(await generateReaction(w.payload(job, 'generate_reaction'), w.deps)).toEqual({ awaiting_provider: false });
    const done = await w.jobs.get(ACCOUNT, job.id);
    expect(done?.provider_wait).toEqual({ round: 0, secret, token: null });
    expect(done?.reaction).toMatchObject({ key: e.calls[1]!.options.outputKey });

    await w.jobs.update(ACCOUNT, job.id, { regenerations: 1 });
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    const next = (await w.jobs.get(ACCOUNT, job.id))!.provider_wait!;
    expect(next.round).toBe(1);
    expect(next.secret).not.toBe(secret);
  });

  test('without an address for webhooks, or with an engine that does not call back, nothing waits by callback', async () => {
    for (const [ports, extra] of [
      [callingBack(0).ports, {}],
      [engines().ports, CALLBACKS],
    ] as const) {
      const w = pipelineWorld({ engines: ports, ...extra });
      const job = await w.queuedJob();
      expect(await generateReaction(w.payload(job, 'generate_reaction'), w.deps)).toEqual({ awaiting_provider: false });
      expect((await w.jobs.get(ACCOUNT, job.id))?.provider_wait).toBeUndefined();
    }
  });

  test('AwaitProvider keeps its token on the round\'s provider wait, where the webhook finds it', async () => {
    const w = pipelineWorld({ engines: callingBack().ports, ...CALLBACKS });
    const job = await w.queuedJob();
    await generateReaction(w.payload(job, 'generate_reaction'), w.deps);
    await awaitProvider({ ...w.payload(job, 'await_provider'), task_token: 'token-1' }, w.deps);
    expect(await w.jobs.get(ACCOUNT, job.id)).toMatchObject({ provider_wait: { round: 0, token: 'token-1' }, resume_at: JOB_STATE.AwaitProvider });
  });
});

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await check()); tries++) {
    if (tries > 200) throw new Error('never happened');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
