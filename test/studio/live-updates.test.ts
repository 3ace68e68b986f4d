/**
 * The studio's shared live-updates socket (studio/src/api/live-updates.ts) against a WebSocket double
 * that speaks the protocol: one socket for every followed record, a record live once subscribed, let go
 * when its last follower stops, and everything followed again on a new ticket after a drop.
 */
import { LiveUpdates } from '../../studio/src/api/live-updates';
import type { WebSocketLike } from '#client/live-updates';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** Waits (in real time) until `ready` holds. */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ready(); i++) await tick();
  expect(ready()).toBe(true);
}

/** Sockets opened, each answering a subscribe with `subscribed` (or an error for the ids in `refused`). */
function socketWorld(refused: number[] = []) {
  const sockets: { url: string; sent: any[]; drop: () => void; push: (m: unknown) => void; closed: boolean }[] = [];
  class Socket implements WebSocketLike {
    private listeners = new Map<string, ((event: { data: unknown }) => void)[]>();
    private readonly me: (typeof sockets)[number];
    constructor(url: string) {
      this.me = { url, sent: [], closed: false, drop: () => this.emit('close'), push: (m) => this.emit('message', JSON.stringify(m)) };
      sockets.push(this.me);
      setTimeout(() => this.emit('open'), 1);
    }
    addEventListener(type: string, listener: (event: { data: unknown }) => void) {
      this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
    }
    send(data: string) {
      const m = JSON.parse(data);
      this.me.sent.push(m);
      if (m.action !== 'subscribe') return;
      const answer = refused.includes(m.id) ? { type: 'error', code: 'not_found', message: 'not found', resource: m.resource, id: m.id } : { type: 'subscribed', resource: m.resource, id: m.id, data: { id: m.id, v: 0 } };
      setTimeout(() => this.emit('message', JSON.stringify(answer)), 1);
    }
    close() {
      this.me.closed = true;
    }
    private emit(type: string, data?: string) {
      for (const listener of this.listeners.get(type) ?? []) listener({ data });
    }
  }
  let tickets = 0;
  const live = new LiveUpdates({ ticket: async () => ({ ticket: `rsu_${++tickets}`, url: 'wss://updates.test/v1' }), WebSocket: Socket });
  return { live, sockets, tickets: () => tickets };
}

test('two records followed at once share one socket; each is live once subscribed and gets its own updates', async () => {
  const { live, sockets } = socketWorld();
  const jobs: unknown[] = [];
  const products: unknown[] = [];
  const stops = [live.follow('job', 7, (d) => jobs.push(d)), live.follow('product', 2, (d) => products.push(d))];
  await until(() => live.isLive('job', 7) && live.isLive('product', 2));
  expect(sockets).toHaveLength(1);
  expect(sockets[0]!.url).toBe('wss://updates.test/v1?ticket=rsu_1');
  expect(live.isLive('job', 7) && live.isLive('product', 2)).toBe(true);
  sockets[0]!.push({ type: 'update', resource: 'job', id: 7, data: { id: 7, v: 1 } });
  expect(jobs).toEqual([{ id: 7, v: 0 }, { id: 7, v: 1 }]);
  expect(products).toEqual([{ id: 2, v: 0 }]);
  stops.forEach((stop) => stop());
});

test('a record the socket refuses (not found) is not live, so its page keeps polling', async () => {
  const world = socketWorld([9]);
  const { live } = world;
  const { sockets } = world;
  const stop = live.follow('job', 9, () => undefined);
  await until(() => sockets[0]?.sent.length === 1);
  await tick();
  await tick();
  expect(live.isLive('job', 9)).toBe(false);
  stop();
});

test("the last follower's stop unsubscribes, and with nothing followed the socket closes", async () => {
  const { live, sockets } = socketWorld();
  const stopA = live.follow('avatar', 3, () => undefined);
  const stopB = live.follow('avatar', 3, () => undefined);
  await until(() => live.isLive('avatar', 3));
  stopA();
  expect(sockets[0]!.sent.filter((m) => m.action === 'unsubscribe')).toEqual([]);
  stopB();
  expect(sockets[0]!.sent.at(-1)).toEqual({ action: 'unsubscribe', resource: 'avatar', id: 3 });
  expect(live.isLive('avatar', 3)).toBe(false);
  expect(sockets[0]!.closed).toBe(true);
});

test('after a drop nothing is live until a new socket, on a new ticket, has subscribed everything again', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
  try {
    const { live, sockets, tickets } = socketWorld();
    const changes: number[] = [];
    live.subscribe(() => changes.push(live.snapshot()));
    const stop = live.follow('job', 7, () => undefined);
    await jest.advanceTimersByTimeAsync(10);
    expect(live.isLive('job', 7)).toBe(true);
    sockets[0]!.drop();
    expect(live.isLive('job', 7)).toBe(false);
    await jest.advanceTimersByTimeAsync(1_100);
    expect(tickets()).toBe(2);
    expect(sockets).toHaveLength(2);
    expect(sockets[1]!.sent).toEqual([{ action: 'subscribe', resource: 'job', id: 7 }]);
    expect(live.isLive('job', 7)).toBe(true);
    expect(changes.length).toBeGreaterThanOrEqual(3);
    stop();
  } finally {
    jest.useRealTimers();
  }
});
