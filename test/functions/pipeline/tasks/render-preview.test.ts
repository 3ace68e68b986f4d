/**
 * RenderPreview records each round's preview as a take (domain/takes.ts) beside the earlier ones: a
 * regenerated job keeps every take and its files, and a retried step records its take once.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { jobObjectKeys } from '#domain/jobs';
import { takesOf } from '#domain/takes';
import { renderPreview } from '#pipeline/tasks/render-preview';
import type { VideoComposer } from '#ports/video-composer';
import { ACCOUNT, pipelineWorld } from '#test-support/pipeline';

/** Encodes nothing: the segment is the reaction's bytes under a caption's name, the preview that segment. */
const composer: VideoComposer = {
  captionSegment: async ({ reactionPath, caption, outputPath }) => {
    await writeFile(outputPath, `${caption?.text ?? 'no caption'} over ${await readFile(reactionPath, 'utf8')}`);
    return { durationS: 4 };
  },
  join: async ({ segmentPath, outputPath }) => {
    await copyFile(segmentPath, outputPath);
    return { durationS: 4, sizeBytes: 1 };
  },
  poster: async ({ outputPath }) => writeFile(outputPath, 'jpeg'),
  defaultPosterTimeS: () => 2,
};

/** A preview job in its round `round`, its reaction generated under `prompt` (what GenerateReaction leaves). */
async function generated(w: ReturnType<typeof pipelineWorld>, jobId: number, round: number, prompt: string) {
  const key = jobObjectKeys(ACCOUNT, jobId, round).reaction;
  await w.blobs.putBuffer(key, Buffer.from(`reaction ${round}`), 'video/mp4');
  await w.jobs.update(ACCOUNT, jobId, {
    status: 'processing',
    regenerations: round,
    prompt,
    reaction: { key, duration_s: 4, emotion: 'shocked', engine: 'local', seed: round },
    preview: null,
  });
}

describe('RenderPreview and takes', () => {
  test("each round's preview is a take: a regenerated job keeps every take, with its own files and the prompt that made it", async () => {
    const w = pipelineWorld({ composer });
    const job = await w.queuedJob({ mode: 'preview', hookText: 'Wait', sound: 'none' });
    await generated(w, job.id, 0, 'shocked');
    await renderPreview(w.payload(job, 'render_preview'), w.deps);
    w.advance(60_000);
    await generated(w, job.id, 1, 'laughing');
    await renderPreview(w.payload(job, 'render_preview'), w.deps);

    const stored = (await w.jobs.get(ACCOUNT, job.id))!;
    const takes = takesOf(stored);
    expect(takes.map((take) => [take.take, take.options.prompt, take.preview.key, take.created_at])).toEqual([
      [1, 'shocked', jobObjectKeys(ACCOUNT, job.id, 0).preview, '2026-11-25T12:00:00.000Z'],
      [2, 'laughing', jobObjectKeys(ACCOUNT, job.id, 1).preview, '2026-11-25T12:01:00.000Z'],
    ]);
    expect(takes.map((take) => w.blobs.objects.get(take.preview.key)?.data.toString())).toEqual(['Wait over reaction 0', 'Wait over reaction 1']);
    // The job shows the newest take.
    expect(stored.preview).toEqual(takes[1]!.preview);
  });

  test('a retried step records its take once, in its place', async () => {
    const w = pipelineWorld({ composer });
    const job = await w.queuedJob({ mode: 'preview', sound: 'none' });
    await generated(w, job.id, 0, 'shocked');
    await renderPreview(w.payload(job, 'render_preview'), w.deps);
    await renderPreview(w.payload(job, 'render_preview'), w.deps);
    expect((await w.jobs.get(ACCOUNT, job.id))?.takes?.map((take) => take.take)).toEqual([1]);
  });

  test('a reuse job in preview mode has its captioned saved clip as its one take', async () => {
    const w = pipelineWorld({ composer });
    const saved = await w.savedReaction({ clip_key: 'library/saved.mp4' });
    await w.blobs.putBuffer('library/saved.mp4', Buffer.from('saved clip'), 'video/mp4');
    const job = await w.queuedJob({ mode: 'preview', method: 'reuse', prompt: null, reactionId: saved.id, sound: 'none' });
    await w.jobs.update(ACCOUNT, job.id, { status: 'processing', reaction: { key: 'library/saved.mp4', duration_s: 4, emotion: 'shocked', engine: 'saved', seed: 0 } });
    await renderPreview(w.payload(job, 'render_preview'), w.deps);
    expect(takesOf((await w.jobs.get(ACCOUNT, job.id))!)).toEqual([expect.objectContaining({ take: 1, reaction: expect.objectContaining({ key: 'library/saved.mp4' }) })]);
  });
});
