/**
 * GET /videos/jobs/{id}/takes answers through presentTakes: every take oldest first, its preview
 * signed as the job's own preview is while the job runs, and which take the job stands on.
 */
import { takesOf } from '#domain/takes';
import { presentTakes } from '#use-cases/present-records';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { previewReadyJob, previewReadyJobWithTakes } from '#test-support/video-jobs';

const blobs = new MemoryBlobStore();

describe('presentTakes', () => {
  test('a waiting job: every take with its signed preview and still, the newest current', async () => {
    const job = previewReadyJobWithTakes(1, 5, ['shocked', 'laughing']);
    const [first, second] = takesOf(job);
    expect(await presentTakes(blobs, job)).toEqual([
      expect.objectContaining({ take: 1, current: false, preview_url: `memory://${first!.preview.key}`, preview_still_url: `memory://${first!.preview.still_key}`, options: expect.objectContaining({ prompt: 'shocked' }) }),
      expect.objectContaining({ take: 2, current: true, preview_url: `memory://${second!.preview.key}`, preview_url_expires_at: expect.any(String), options: expect.objectContaining({ prompt: 'laughing' }) }),
    ]);
  });

  test('while a regenerate makes the next take, the earlier ones still play and none is current', async () => {
    const job = { ...previewReadyJobWithTakes(1, 5, ['shocked']), status: 'queued' as const, regenerations: 1, reaction: null, preview: null };
    expect(await presentTakes(blobs, job)).toEqual([expect.objectContaining({ take: 1, current: false, preview_url: expect.stringMatching(/^memory:/) })]);
  });

  test('a done job keeps the record of its takes, the approved one current, without links: their files went with the job', async () => {
    const waiting = previewReadyJobWithTakes(1, 5, ['shocked', 'laughing']);
    const [first] = takesOf(waiting);
    const done = { ...waiting, status: 'done' as const, reaction: first!.reaction, preview: first!.preview };
    expect(await presentTakes(blobs, done)).toEqual([
      expect.objectContaining({ take: 1, current: true, preview_url: null, preview_still_url: null }),
      expect.objectContaining({ take: 2, current: false, preview_url: null }),
    ]);
  });

  test('an auto job has no takes', async () => {
    expect(await presentTakes(blobs, previewReadyJob(1, 5, { mode: 'auto', status: 'done', preview: null }))).toEqual([]);
  });
});
