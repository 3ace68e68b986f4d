/** The render slots: a bounded number of steps at once, the free slot to the oldest job waiting. */
import { RenderSlots, SlotsStopped, type JobAge } from '#local/render-slots';

const age = (createdAtMs: number, jobId: number, accountId = 1): JobAge => ({ createdAtMs, accountId, jobId });
const never = () => new AbortController().signal;
const tick = () => new Promise((r) => setImmediate(r));

describe('RenderSlots', () => {
  test('grants at once while a slot is free, then makes steps wait', async () => {
    const slots = new RenderSlots(2);
    await slots.acquire('a', age(1, 1), never());
    expect(slots.full).toBe(false);
    await slots.acquire('b', age(2, 2), never());
    expect(slots.full).toBe(true);
    let granted = false;
    void slots.acquire('c', age(3, 3), never()).then(() => (granted = true));
    await tick();
    expect(granted).toBe(false);
    expect(slots.positions()).toEqual(new Map([['c', 1]]));
  });

  test('a freed slot goes to the oldest job waiting, not to the step that asked first', async () => {
    const slots = new RenderSlots(1);
    const release = await slots.acquire('running', age(0, 1), never());
    const order: string[] = [];
    const ask = (key: string, a: JobAge) =>
      slots.acquire(key, a, never()).then((done) => {
        order.push(key);
        done();
      });
    const asked = [ask('newest', age(300, 4)), ask('oldest', age(100, 2)), ask('middle', age(200, 3))];
    expect([...slots.positions().keys()]).toEqual(['oldest', 'middle', 'newest']);
    release();
    await Promise.all(asked);
    expect(order).toEqual(['oldest', 'middle', 'newest']);
  });

  test('jobs created in the same millisecond are ordered by account, then job id', async () => {
    const slots = new RenderSlots(1);
    const release = await slots.acquire('running', age(0, 1), never());
    void slots.acquire('2/5', age(50, 5, 2), never());
    void slots.acquire('1/9', age(50, 9, 1), never());
    void slots.acquire('1/7', age(50, 7, 1), never());
    expect([...slots.positions().keys()]).toEqual(['1/7', '1/9', '2/5']);
    release();
  });

  test('listeners hear each waiting step’s position when it changes, and null when it gets its slot', async () => {
    const heard: [string, number | null][] = [];
    const slots = new RenderSlots(1, (key, position) => heard.push([key, position]));
    const release = await slots.acquire('a', age(1, 1), never());
    void slots.acquire('c', age(3, 3), never());
    void slots.acquire('b', age(2, 2), never());
    expect(heard).toEqual([['c', 1], ['b', 1], ['c', 2]]);
    heard.length = 0;
    release();
    expect(heard).toEqual([['b', null], ['c', 1]]);
  });

  test('a step whose signal aborts leaves the line with SlotsStopped, and the others move up', async () => {
    const heard: [string, number | null][] = [];
    const slots = new RenderSlots(1, (key, position) => heard.push([key, position]));
    await slots.acquire('a', age(1, 1), never());
    const controller = new AbortController();
    const waiting = slots.acquire('b', age(2, 2), controller.signal);
    void slots.acquire('c', age(3, 3), never());
    heard.length = 0;
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(SlotsStopped);
    expect(heard).toEqual([['b', null], ['c', 1]]);
    const aborted = new AbortController();
    aborted.abort();
    await expect(slots.acquire('d', age(4, 4), aborted.signal)).rejects.toBeInstanceOf(SlotsStopped);
  });

  test('a release function frees its slot once, however often it is called', async () => {
    const slots = new RenderSlots(1);
    const release = await slots.acquire('a', age(1, 1), never());
    let granted = 0;
    void slots.acquire('b', age(2, 2), never()).then(() => granted++);
    void slots.acquire('c', age(3, 3), never()).then(() => granted++);
    release();
    release();
    await tick();
    expect(granted).toBe(1);
  });
});
