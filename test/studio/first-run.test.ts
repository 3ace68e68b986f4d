/** The first-run checklist (studio/src/pages/first-run/first-run.ts): each step ticked from the account's own data. */
import { firstRun, jobToFollow, type FirstRunFacts } from '../../studio/src/pages/first-run/first-run';

type Demo = NonNullable<FirstRunFacts['products'][number]['demo_video']>;
const demo = (status: Demo['status']): Demo => ({ status, url: null, url_expires_at: null, duration_s: null, width: null, height: null, error: null });
const NEW_ACCOUNT: FirstRunFacts = {
  products: [],
  avatars: [
    { status: 'ready', stock: true },
    { status: 'ready', stock: true },
    { status: 'ready', stock: true },
    { status: 'ready', stock: true },
  ],
  jobs: [],
  videos: 0,
};
const step = (facts: FirstRunFacts, i: 0 | 1 | 2) => firstRun(facts).steps[i]!;
const states = (facts: FirstRunFacts) => firstRun(facts).steps.map((step) => [step.key, step.state]);

test('a new account: a product to add, the stock avatars already there to pick, a video to make', () => {
  const run = firstRun(NEW_ACCOUNT);
  expect(states(NEW_ACCOUNT)).toEqual([
    ['product', 'todo'],
    ['avatar', 'done'],
    ['video', 'todo'],
  ]);
  expect(run.steps[0]!.detail).toMatch(/sample product/);
  expect(run.steps[1]!.detail).toBe('4 stock avatars are ready to pick on New video; make your own on the Avatars page.');
  expect(run).toMatchObject({ complete: false, readyProductId: null });
});

test('a product counts once its demo is ready; while it is prepared the step is under way', () => {
  const preparing = { ...NEW_ACCOUNT, products: [{ id: 7, name: 'Habit tracker (sample)', demo_video: demo('processing') }] };
  expect(step(preparing, 0)).toMatchObject({ state: 'waiting', detail: expect.stringMatching(/^Habit tracker \(sample\): its demo is being prepared/) });
  expect(firstRun(preparing).readyProductId).toBeNull();
  const ready = { ...NEW_ACCOUNT, products: [{ id: 3, name: 'No demo', demo_video: null }, { id: 7, name: 'Habit tracker (sample)', demo_video: demo('ready') }] };
  expect(step(ready, 0)).toMatchObject({ state: 'done', detail: 'Habit tracker (sample) has its demo ready.' });
  expect(firstRun(ready).readyProductId).toBe(7);
});

test('a product without a usable demo does not tick the step', () => {
  for (const demoVideo of [null, demo('failed')]) {
    expect(step({ ...NEW_ACCOUNT, products: [{ id: 1, name: 'Serum', demo_video: demoVideo }] }, 0).state).toBe('todo');
  }
});

test("an account's own avatars are counted apart from the stock ones; with none ready the step waits or is to do", () => {
  const own = { ...NEW_ACCOUNT, avatars: [...NEW_ACCOUNT.avatars, { status: 'ready' as const, stock: false }] };
  expect(step(own, 1).detail).toBe('You have 1 avatar of your own, and 4 stock ones.');
  expect(step({ ...NEW_ACCOUNT, avatars: [{ status: 'processing', stock: false }] }, 1).state).toBe('waiting');
  expect(step({ ...NEW_ACCOUNT, avatars: [{ status: 'failed', stock: false }] }, 1).state).toBe('todo');
});

test('the video step: under way while a job runs or a preview waits, done with the first finished video, and then the list is complete', () => {
  const product = [{ id: 7, name: 'Sample', demo_video: demo('ready') }];
  const running = { ...NEW_ACCOUNT, products: product, jobs: [{ id: 12, status: 'processing' as const }] };
  expect(step(running, 2).state).toBe('waiting');
  const previewed = { ...running, jobs: [{ id: 12, status: 'preview_ready' as const }] };
  expect(step(previewed, 2).detail).toMatch(/approve it/);
  const failed = { ...running, jobs: [{ id: 12, status: 'failed' as const }] };
  expect(step(failed, 2).state).toBe('todo');
  const finished = { ...running, jobs: [{ id: 12, status: 'done' as const }], videos: 1 };
  expect(firstRun(finished)).toMatchObject({ complete: true });
  expect(step(finished, 2).detail).toBe('You have 1 finished video.');
});

test('the job to follow is the newest running one, else the newest preview waiting', () => {
  expect(jobToFollow([])).toBeNull();
  expect(jobToFollow([{ id: 5, status: 'preview_ready' }, { id: 4, status: 'queued' }])).toBe(4);
  expect(jobToFollow([{ id: 5, status: 'done' }, { id: 4, status: 'preview_ready' }])).toBe(4);
  expect(jobToFollow([{ id: 5, status: 'failed' }])).toBeNull();
});
