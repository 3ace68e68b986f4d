/**
 * A crash never blocks a restart: `npm start` (tsx bin/serve.ts, its own process group) is killed with
 * SIGKILL, group and all, ten times in a row with video jobs in flight, and started again at once
 * on the same DATA_DIR each time. A job is posted on every other start and each start resumes the
 * unfinished ones, so every kill catches jobs queued, mid-render or finishing. The last start then
 * works every job off; the allowance's exactly-once rule holds across all the kills.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClient, type ApiClient } from '#test-support/local-stack';
import { getWithRetry, waitForJob } from '#test-support/jobs';
import { startServe, type ServeProcess } from '#test-support/serve-process';

const KILLS = 10;
/** A job on every other start: five real renders in all, each resumed across several kills. */
const POSTS_JOB = (start: number) => start % 2 === 0;
/** How long each start runs before the kill: jobs are caught queued, mid-render and finishing. */
const RUN_BEFORE_KILL_MS = [300, 2500, 1200, 4000, 0, 1800, 3200, 700, 2200, 5000];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const autoJob = (productId: number, i: number) => ({ product_id: productId, method: 'prompt', prompt: `surprised, take ${i}`, hook_text: `Take ${i}` });

describe('npm start killed with SIGKILL (whole process group) and started again at once', () => {
  let dataDir: string;
  let service: ServeProcess | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'rs-soak-'));
  });

  afterAll(async () => {
    await service?.killGroup();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test('ten times in a row with jobs in flight: every start succeeds, then each job ends once, charged once', async () => {
    const began = Date.now();
    const startMs: number[] = [];
    const jobIds: number[] = [];
    let demoKey: string | undefined;
    let productId = 0;
    let api: ApiClient;

    for (let kill = 0; kill < KILLS; kill++) {
      service = await startServe(dataDir);
      startMs.push(service.startMs);
      demoKey ??= service.demoKey;
      expect(demoKey).toBeDefined();
      api = apiClient(service.apiUrl, demoKey);
      if (!productId) {
        const product = await api.post('/products', { name: 'Soak serum' });
        expect(product.status).toBe(201);
        productId = product.body.data.id;
      }
      if (POSTS_JOB(kill)) {
        const created = await api.post('/videos', autoJob(productId, kill));
        expect(created.status).toBe(202);
        jobIds.push(created.body.data.id);
      }

      await sleep(RUN_BEFORE_KILL_MS[kill]!);
      await service.killGroup();
      service = undefined;
    }

    service = await startServe(dataDir);
    startMs.push(service.startMs);
    api = apiClient(service.apiUrl, demoKey);
    // Every job created reaches a final state: none stays queued or processing.
    const jobs = [];
    try {
      for (const id of jobIds) jobs.push((await waitForJob(api, id, ['done', 'failed'], { timeoutMs: 300_000, intervalMs: 1500 })).job);
    } catch (error) {
      throw new Error(`${(error as Error).message}\njobs created: ${jobIds.join(', ')}\n--- the last start's output (tail) ---\n${service.output().slice(-4000)}`, { cause: error });
    }

    const done = jobs.filter((j) => j.status === 'done');
    const failed = jobs.filter((j) => j.status === 'failed');
    // A job may fail only with a reason a client can act on, and then costs nothing.
    expect(failed.map((j) => ({ id: j.id, charged_units: j.charged_units, code: typeof j.error?.code }))).toEqual(
      failed.map((j) => ({ id: j.id, charged_units: 0, code: 'string' })),
    );
    expect(done.map((j) => ({ id: j.id, charged_units: j.charged_units, video: typeof j.video_id }))).toEqual(
      done.map((j) => ({ id: j.id, charged_units: 1, video: 'number' })),
    );
    expect(done.length).toBeGreaterThan(0);

    const usage = await getWithRetry(api, '/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.data.allowance).toMatchObject({ used: done.length, reserved: 0 });
    // One video per done job: no render was delivered twice.
    expect((await getWithRetry(api, '/videos')).body.meta.total).toBe(done.length);

    await service.stop();
    service = undefined;
    if (process.env.SOAK_REPORT) {
      process.stdout.write(
        `restart soak: ${KILLS} kills, ${startMs.length} starts (${startMs.map((ms) => (ms / 1000).toFixed(1)).join(' ')} s), ` +
          `${jobIds.length} jobs (${done.length} done, ${failed.length} failed), ${((Date.now() - began) / 1000).toFixed(0)} s in all\n`,
      );
    }
  }, 600_000);
});
