/**
 * The finished video's sound and looks (bench/quality-looks.ts) as a marketer's post would carry it: for each method (prompt, photo,
 * motion, reuse) and a quiet (−30 LUFS, music) and a loud (−8 LUFS, speech) demo, one job through the
 * API of a local stack with the default sound (auto), its MP4 measured as the platforms measure it:
 * integrated loudness, true peak, loudness range, the longest stretch under −50 dB, and the reaction
 * part's own loudness. Then what the sound costs the join: the old stream copy of both streams
 * against today's mixed, levelled join, alternated in one sitting (alone: `--only join`).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOUDNESS_TARGET } from '#domain/sound';
import { processTree } from './proc-cpu';
import type { ApiCall } from './stack-client';
import { benchAccount, onLocalStack } from './local-stack';
import { fmt, median, type SectionResult, type Table, type Target, type SectionOptions } from './report';
import { looksSummary, measureLooks, type LooksRow } from './quality-looks';

/** `joinRuns`: join timings per side (old copy, new mix), alternated. */
export const QUALITY_DEFAULTS = { demoS: 10, joinRuns: 5, pollMs: 250 } as const;
export type QualityOptions = SectionOptions<typeof QUALITY_DEFAULTS>;

export type JoinOptions = Pick<QualityOptions, 'demoS' | 'joinRuns' | 'log'>;
/** The join alone, on no stack: more runs than the quality section's, so its medians hold on a busy machine. */
export const JOIN_DEFAULTS = { demoS: QUALITY_DEFAULTS.demoS, joinRuns: 9 } as const;

const METHODS = ['prompt', 'photo', 'motion', 'reuse'] as const;
type Method = (typeof METHODS)[number];
const DEMOS = [
  { name: 'quiet music demo (−30 LUFS)', kind: 'music', lufs: -30 },
  { name: 'loud speech demo (−8 LUFS)', kind: 'speech', lufs: -8 },
] as const;
const MAX_SILENCE_S = 0.5;
const MAX_JOIN_COST_S = 0.3;

interface Measured {
  method: Method;
  demo: string;
  integratedLufs: number;
  truePeakDbtp: number;
  rangeLu: number;
  longestSilenceS: number;
  reactionLufs: number | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls the job's record (the API's 120 requests a minute would not last through eight renders). */
async function waitFor(jobs: { get(accountId: number, id: number): Promise<any> }, accountId: number, id: number, status: string, pollMs: number): Promise<any> {
  for (;;) {
    const job = await jobs.get(accountId, id);
    if (job?.status === status) return job;
    if (job?.status === 'failed') throw new Error(`job ${id} failed: ${JSON.stringify(job.error)}`);
    await sleep(pollMs);
  }
}

async function posted(call: ApiCall, path: string, body: unknown): Promise<any> {
  const res = await call('POST', path, body);
  if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The longest run under −50 dB (silencedetect at 0.1 s resolution), 0 when there is none. */
async function longestSilenceS(file: string, durationS: number): Promise<number> {
  const { runFfmpeg, fileArg } = await import('#render');
  const { stderrTail } = await runFfmpeg(['-v', 'info', '-nostats', '-i', fileArg(file), '-map', '0:a:0', '-af', 'silencedetect=n=-50dB:d=0.1', '-f', 'null', '-']);
  let longest = 0;
  let start: number | null = null;
  for (const line of stderrTail.split('\n')) {
    const s = /silence_start: (-?[0-9.]+)/.exec(line);
    if (s) start = Math.max(0, Number(s[1]));
    const e = /silence_end: ([0-9.]+)/.exec(line);
    if (e && start !== null) {
      longest = Math.max(longest, Number(e[1]) - start);
      start = null;
    }
  }
  return start !== null ? Math.max(longest, durationS - start) : longest;
}

async function measureVideo(file: string, reactionS: number): Promise<Omit<Measured, 'method' | 'demo'>> {
  const { measureLoudness, runFfmpeg, fileArg, probeMedia } = await import('#render');
  const probed = await probeMedia(file);
  const durationS = probed.ok ? (probed.media.durationS ?? 0) : 0;
  const whole = await measureLoudness(file);
  const cut = `${file}.reaction.wav`;
  await runFfmpeg(['-v', 'error', '-i', fileArg(file), '-map', '0:a:0', '-af', `atrim=0:${reactionS}`, '-y', fileArg(cut)]);
  const reaction = await measureLoudness(cut);
  return {
    integratedLufs: whole.integratedLufs ?? -70,
    truePeakDbtp: whole.truePeakDbtp ?? -Infinity,
    rangeLu: whole.rangeLu,
    longestSilenceS: await longestSilenceS(file, durationS),
    reactionLufs: reaction.integratedLufs,
  };
}

/** The caption's ink box as compose drew it for this job (the same spec, the same renderer); null without one. */
async function captionBoxOf(job: Parameters<typeof import('#domain/jobs').captionOf>[0]): Promise<{ x: number; y: number; width: number; height: number } | null> {
  const { captionOf } = await import('#domain/jobs');
  const { renderCaptionPng } = await import('#render');
  const spec = captionOf(job);
  return spec ? (await renderCaptionPng(spec)).box : null;
}

/** A demo whose audio measures `lufs`, uploaded and normalised. */
async function productAt(call: ApiCall, tasksIdle: () => Promise<void>, demo: (typeof DEMOS)[number], seconds: number): Promise<number> {
  const { demoAtLoudness } = await import('#test-support/sound-fixtures');
  const form = new FormData();
  form.append('name', demo.name);
  form.append('demo_video', new Blob([await readFile(await demoAtLoudness(demo.kind, demo.lufs, seconds))]), 'demo.mp4');
  const product = await posted(call, '/products', form);
  await tasksIdle();
  return product.id as number;
}

export async function runQuality(options: QualityOptions): Promise<SectionResult> {
  const { log } = options;
  const { makeReferenceClip, realFacePng } = await import('./reference-clip');
  return onLocalStack('quality', { sandboxes: false }, async ({ stack, dir }) => {
    const { accountId, call } = await benchAccount(stack, 'bench-quality', 'business');
    const measured: Measured[] = [];
    const looks: LooksRow[] = [];
    const tasksIdle = () => stack.tasks.idle();

    const face = await realFacePng();
    const photoForm = new FormData();
    photoForm.append('image', new Blob([face], { type: 'image/png' }), 'face.png');
    const photo = await posted(call, '/avatars', photoForm);
    await tasksIdle();
    const referencePath = join(dir, 'reference.mp4');
    await makeReferenceClip(face, referencePath, { durationS: 4 });

    for (const demo of DEMOS) {
      const productId = await productAt(call, tasksIdle, demo, options.demoS);
      const hook = { hook_text: 'POV: the serum that finally works 😱' };
      const bodyOf = async (method: Method): Promise<unknown> => {
        switch (method) {
          case 'prompt':
            return { product_id: productId, method: 'prompt', prompt: 'a woman in her 30s, shocked by the price', ...hook };
          case 'photo':
            return { product_id: productId, method: 'prompt', avatar_id: photo.id, prompt: 'laughing so hard', ...hook };
          case 'motion': {
            const form = new FormData();
            for (const [k, v] of Object.entries({ product_id: productId, method: 'motion', avatar_id: photo.id, video_source: 'upload', ...hook })) form.append(k, String(v));
            form.append('reference_video', new Blob([await readFile(referencePath)], { type: 'video/mp4' }), 'reference.mp4');
            return form;
          }
          case 'reuse': {
            const preview = await posted(call, '/videos', { product_id: productId, method: 'prompt', mode: 'preview', prompt: 'mind blown' });
            await waitFor(stack.dependencies.jobs, accountId, preview.id, 'preview_ready', options.pollMs);
            const saved = await posted(call, '/reactions', { job_id: preview.id });
            return { product_id: productId, method: 'reuse', reaction_id: saved.id, ...hook };
          }
        }
      };
      for (const method of METHODS) {
        const body = await bodyOf(method);
        const job = await posted(call, '/videos', body);
        const done = await waitFor(stack.dependencies.jobs, accountId, job.id, 'done', options.pollMs);
        const video = (await call('GET', `/videos/${done.video_id}`)).body.data;
        const file = join(dir, `${method}-${demo.lufs}.mp4`);
        await writeFile(file, Buffer.from(await (await fetch(video.url)).arrayBuffer()));
        const reactionS = (video.duration_s as number) - options.demoS;
        const figures = await measureVideo(file, reactionS);
        measured.push({ method, demo: demo.name, ...figures });
        // The picture does not depend on the demo's sound: one video per method is enough.
        if (demo === DEMOS[0]) {
          const poster = join(dir, `${method}-poster.jpg`);
          await writeFile(poster, Buffer.from(await (await fetch(video.thumbnail_url)).arrayBuffer()));
          const reference = method === 'motion' ? referencePath : undefined;
          looks.push(await measureLooks({ method, video: file, reactionS, peakS: done.reaction?.peak_s ?? null, poster, reference, caption: await captionBoxOf(done), dir }));
        }
        log(`${method} × ${demo.name}: ${fmt(figures.integratedLufs)} LUFS, ${fmt(figures.truePeakDbtp)} dBTP, LRA ${fmt(figures.rangeLu)} LU, longest silence ${fmt(figures.longestSilenceS, 2)} s, reaction ${fmt(figures.reactionLufs ?? NaN)} LUFS`);
      }
    }
    const join_ = await joinCost(dir, options);
    return withLooks(summarise(measured, join_), looks);
  });
}

/** Wall and CPU seconds (ffmpeg and ffprobe, reaped by this process) of each join, per side. */
interface JoinTimes {
  copyS: number[];
  mixS: number[];
  copyCpuS: number[];
  mixCpuS: number[];
}

/** The CPU seconds of the children this process has reaped so far: the ffmpeg and ffprobe runs. */
const reapedCpuS = () => processTree().find((p) => p.pid === process.pid)?.reapedS ?? NaN;

/** Runs `work`, adding its wall and child CPU seconds to the lists. */
async function timed(work: () => Promise<unknown>, wallS: number[], cpuS: number[]): Promise<void> {
  const [t0, c0] = [performance.now(), reapedCpuS()];
  await work();
  wallS.push((performance.now() - t0) / 1000);
  cpuS.push(reapedCpuS() - c0);
}

/** What the sound costs the join, on its own (`--only join`). */
export async function runJoinCost(options: JoinOptions): Promise<SectionResult> {
  const dir = await mkdtemp(join(tmpdir(), 'rs-join-'));
  try {
    const joins = await joinCost(dir, options);
    return { tables: [joinTable(joins)], targets: [joinTarget(joins)], notes: [`a 4 s reaction and a ${options.demoS} s demo; CPU is that of the ffmpeg and ffprobe runs`], data: { joins } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function withLooks(result: SectionResult, looks: LooksRow[]): SectionResult {
  const { table, targets } = looksSummary(looks);
  return { ...result, tables: [...result.tables, table], targets: [...result.targets, ...targets], data: { ...result.data, looks } };
}

/** The join before sound (both streams copied) against today's (pictures copied, the sound mixed and levelled), alternated. */
async function joinCost(dir: string, options: JoinOptions): Promise<JoinTimes> {
  const { canonicalConcatList, canonicalJoinArgs, captionSegment, joinWithDemo, normaliseVideo, probeMedia, runFfmpeg, fileArg } = await import('#render');
  const { demoAtLoudness, builtInSoundFile } = await import('#test-support/sound-fixtures');
  const demo = join(dir, 'join-demo.mp4');
  const normalised = await normaliseVideo(await demoAtLoudness('speech', -8, options.demoS), demo);
  const reaction = join(dir, 'join-reaction.mp4');
  await runFfmpeg(['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=1080x1920:r=30:d=4', '-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo', '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-y', fileArg(reaction)]);
  const segment = join(dir, 'join-segment.mp4');
  const { durationS } = await captionSegment({ reactionPath: reaction, caption: null, outputPath: segment });
  const sound = { voicePath: null, effectPath: await builtInSoundFile('riser-hit'), bed: { path: await builtInSoundFile('cinematic-rise'), role: 'fill' as const } };
  const list = join(dir, 'join.ffconcat');
  await writeFile(list, canonicalConcatList([{ path: segment, durationS }, { path: demo, durationS: normalised.durationS }]));
  const times: JoinTimes = { copyS: [], mixS: [], copyCpuS: [], mixCpuS: [] };
  for (let i = 0; i < options.joinRuns; i++) {
    // The join as it was: both streams copied, then the output probed (its check then).
    await timed(async () => {
      await runFfmpeg(canonicalJoinArgs(list, join(dir, `copy-${i}.mp4`)));
      await probeMedia(join(dir, `copy-${i}.mp4`));
    }, times.copyS, times.copyCpuS);
    const input = { segmentPath: segment, segmentDurationS: durationS, demo: { path: demo, durationS: normalised.durationS, encoding: normalised.encoding, loudnessLufs: normalised.loudnessLufs }, sound };
    await timed(() => joinWithDemo({ ...input, outputPath: join(dir, `mix-${i}.mp4`) }), times.mixS, times.mixCpuS);
    options.log(`join ${i + 1}/${options.joinRuns}: copy ${fmt(times.copyS.at(-1)!, 3)} s, mixed ${fmt(times.mixS.at(-1)!, 3)} s`);
  }
  return times;
}

function joinTarget(joins: JoinTimes): Target {
  return { what: 'join: mixed and levelled minus stream copy (median)', value: median(joins.mixS) - median(joins.copyS), max: MAX_JOIN_COST_S, unit: 's' };
}

function joinTable(joins: JoinTimes): Table {
  const runs = (values: number[]) => values.map((s) => fmt(s, 2)).join(' ');
  return {
    title: `Join time, ${joins.copyS.length} runs each, alternated (target: sound costs ≤ ${MAX_JOIN_COST_S} s)`,
    head: ['join', 'median s', 'runs s', 'ffmpeg + ffprobe CPU s (median)'],
    rows: [
      ['before: both streams copied, output probed', fmt(median(joins.copyS), 3), runs(joins.copyS), fmt(median(joins.copyCpuS), 3)],
      ['now: pictures copied, sound mixed + levelled', fmt(median(joins.mixS), 3), runs(joins.mixS), fmt(median(joins.mixCpuS), 3)],
    ],
  };
}

function summarise(rows: Measured[], joins: JoinTimes): SectionResult {
  const { integratedLufs: target, toleranceLu, truePeakDbtp } = LOUDNESS_TARGET;
  const targets: Target[] = rows.flatMap((r) => [
    { what: `${r.method} × ${r.demo}: |integrated − (−14)|`, value: Math.abs(r.integratedLufs - target), max: toleranceLu, unit: 'LU' },
    { what: `${r.method} × ${r.demo}: true peak`, value: r.truePeakDbtp, max: truePeakDbtp, unit: 'dBTP' },
    { what: `${r.method} × ${r.demo}: longest silence`, value: r.longestSilenceS, max: MAX_SILENCE_S, unit: 's' },
  ]);
  const spread = Math.max(...rows.map((r) => r.integratedLufs)) - Math.min(...rows.map((r) => r.integratedLufs));
  targets.push({ what: 'spread of integrated loudness across all videos', value: spread, max: 2, unit: 'LU' });
  targets.push(joinTarget(joins));
  const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  return {
    tables: [
      {
        title: `Sound of finished videos, sound=auto (targets: −14 ±${toleranceLu} LUFS, ≤ ${truePeakDbtp} dBTP, no silence ≥ ${MAX_SILENCE_S} s)`,
        head: ['method × demo', 'LUFS', 'dBTP', 'LRA LU', 'longest silence s', 'reaction LUFS', 'verdict'],
        rows: rows.map((r) => [
          `${r.method} × ${r.demo}`,
          fmt(r.integratedLufs),
          fmt(r.truePeakDbtp),
          fmt(r.rangeLu),
          fmt(r.longestSilenceS, 2),
          fmt(r.reactionLufs ?? NaN),
          pass(Math.abs(r.integratedLufs - target) <= toleranceLu && r.truePeakDbtp <= truePeakDbtp && r.longestSilenceS < MAX_SILENCE_S),
        ]),
      },
      joinTable(joins),
    ],
    targets,
    notes: [`spread of integrated loudness across the ${rows.length} videos: ${fmt(spread)} LU`],
    data: { rows, joins },
  };
}
