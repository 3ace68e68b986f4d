/**
 * What every UpdateSocketStore must do, run against the DynamoDB store and the in-memory double the
 * unit tests use: tickets taken once and never past their expiry, sockets and what they follow, the cap
 * on subscriptions, and closing that leaves nothing behind.
 */
import type { UpdateTopic } from '#domain/live-updates';
import type { UpdateSocket, UpdateSocketStore } from '#ports/update-sockets';

const OPENED = '2026-03-01T10:00:00.000Z';
const EXPIRES = new Date('2026-03-01T10:01:00.500Z');
const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);
const job = (id: number): UpdateTopic => ({ resource: 'job', id });

/** `firstScope`: the suite takes scopes (accounts) from there up, which no other suite on the same table uses. */
export function updateSocketStoreContract(store: () => UpdateSocketStore, firstScope: number): void {
  let nextScope = firstScope;
  const freshScope = () => nextScope++;
  const socketIn = (scopeId: number, name: string): UpdateSocket => ({ connectionId: `conn-${scopeId}-${name}`, scopeId, openedAt: OPENED });
  async function opened(scopeId: number, name: string): Promise<UpdateSocket> {
    const socket = socketIn(scopeId, name);
    await store().open(socket);
    return socket;
  }
  const following = async (scopeId: number, topic: UpdateTopic) => (await store().subscribers(scopeId, topic)).sort();

  describe('the update socket store: tickets', () => {
    test('a ticket is taken once, answering its scope; an unknown ticket answers nothing', async () => {
      const scopeId = freshScope();
      await store().saveTicket(`ticket-${scopeId}`, { scopeId, expiresAt: EXPIRES });
      expect(await store().takeTicket(`ticket-${scopeId}`, new Date(OPENED))).toBe(scopeId);
      expect(await store().takeTicket(`ticket-${scopeId}`, new Date(OPENED))).toBeUndefined();
      expect(await store().takeTicket(`never-issued-${scopeId}`, new Date(OPENED))).toBeUndefined();
    });

    test('a ticket is good up to its expiry, to the millisecond, and one refused as expired is gone', async () => {
      const scopeId = freshScope();
      await store().saveTicket(`edge-${scopeId}`, { scopeId, expiresAt: EXPIRES });
      await store().saveTicket(`late-${scopeId}`, { scopeId, expiresAt: EXPIRES });
      expect(await store().takeTicket(`edge-${scopeId}`, EXPIRES)).toBe(scopeId);
      expect(await store().takeTicket(`late-${scopeId}`, plus(EXPIRES, 1))).toBeUndefined();
      expect(await store().takeTicket(`late-${scopeId}`, new Date(OPENED))).toBeUndefined();
    });

    test('of two connections racing for one ticket, exactly one gets it', async () => {
      const scopeId = freshScope();
      await store().saveTicket(`raced-${scopeId}`, { scopeId, expiresAt: EXPIRES });
      const taken = await Promise.all([0, 1, 2].map(() => store().takeTicket(`raced-${scopeId}`, new Date(OPENED))));
      expect(taken.filter((scope) => scope !== undefined)).toEqual([scopeId]);
    });

    test('a ticket is saved once: saving another under the same hash is refused and the first stands', async () => {
      const scopeId = freshScope();
      await store().saveTicket(`saved-${scopeId}`, { scopeId, expiresAt: EXPIRES });
      await expect(store().saveTicket(`saved-${scopeId}`, { scopeId: scopeId + 1, expiresAt: plus(EXPIRES, 60_000) })).rejects.toThrow();
      expect(await store().takeTicket(`saved-${scopeId}`, new Date(OPENED))).toBe(scopeId);
    });
  });

  describe('the update socket store: sockets and subscriptions', () => {
    test('an open socket is found as it was opened; an unknown or closed one is not', async () => {
      const scopeId = freshScope();
      const socket = await opened(scopeId, 'a');
      expect(await store().find(socket.connectionId)).toEqual(socket);
      expect(await store().find(`conn-${scopeId}-unknown`)).toBeUndefined();
      await store().close(socket.connectionId);
      expect(await store().find(socket.connectionId)).toBeUndefined();
    });

    test("a record's subscribers are the sockets following it in its scope, and no others", async () => {
      const scopeId = freshScope();
      const otherScope = freshScope();
      const [a, b, c, d] = [await opened(scopeId, 'a'), await opened(scopeId, 'b'), await opened(otherScope, 'c'), await opened(scopeId, 'd')];
      for (const socket of [a, b, c]) expect(await store().subscribe(socket!, job(7), 10)).toBe('subscribed');
      expect(await store().subscribe(d!, job(70), 10)).toBe('subscribed');
      expect(await store().subscribe(d!, { resource: 'product', id: 7 }, 10)).toBe('subscribed');
      expect(await following(scopeId, job(7))).toEqual([a!.connectionId, b!.connectionId].sort());
      expect(await following(otherScope, job(7))).toEqual([c!.connectionId]);
      expect(await following(scopeId, job(70))).toEqual([d!.connectionId]);
      expect(await following(scopeId, { resource: 'product', id: 7 })).toEqual([d!.connectionId]);
      expect(await following(scopeId, { resource: 'avatar', id: 7 })).toEqual([]);
    });

    test('a socket following `limit` records is full for another, but following one of them again is one subscription', async () => {
      const scopeId = freshScope();
      const socket = await opened(scopeId, 'a');
      expect(await store().subscribe(socket, job(1), 2)).toBe('subscribed');
      expect(await store().subscribe(socket, job(2), 2)).toBe('subscribed');
      expect(await store().subscribe(socket, job(3), 2)).toBe('full');
      expect(await store().subscribe(socket, job(1), 2)).toBe('subscribed');
      expect(await following(scopeId, job(1))).toEqual([socket.connectionId]);
      expect(await following(scopeId, job(3))).toEqual([]);
    });

    test('subscriptions made together never pass the limit', async () => {
      const scopeId = freshScope();
      const socket = await opened(scopeId, 'a');
      const outcomes = await Promise.all([1, 2, 3, 4, 5, 6].map((id) => store().subscribe(socket, job(id), 3)));
      expect(outcomes.filter((outcome) => outcome === 'subscribed')).toHaveLength(3);
      const followed = await Promise.all([1, 2, 3, 4, 5, 6].map(async (id) => (await following(scopeId, job(id))).length));
      expect(followed.reduce((sum, n) => sum + n, 0)).toBe(3);
    });

    test('unsubscribing stops the record reaching the socket and frees its place; unsubscribing what is not followed changes nothing', async () => {
      const scopeId = freshScope();
      const socket = await opened(scopeId, 'a');
      await store().subscribe(socket, job(1), 1);
      await store().unsubscribe(socket, job(2));
      await store().unsubscribe(socketIn(scopeId, 'never-opened'), job(1));
      expect(await following(scopeId, job(1))).toEqual([socket.connectionId]);
      await store().unsubscribe(socket, job(1));
      expect(await following(scopeId, job(1))).toEqual([]);
      expect(await store().subscribe(socket, job(2), 1)).toBe('subscribed');
      expect(await store().find(socket.connectionId)).toEqual(socket);
    });

    test('closing a socket removes it and every subscription of it; closing an unknown socket changes nothing', async () => {
      const scopeId = freshScope();
      const [gone, stays] = [await opened(scopeId, 'a'), await opened(scopeId, 'b')];
      for (const socket of [gone, stays]) for (const id of [1, 2]) await store().subscribe(socket!, job(id), 10);
      await store().close(gone!.connectionId);
      await store().close(gone!.connectionId);
      await store().close(`conn-${scopeId}-unknown`);
      expect(await following(scopeId, job(1))).toEqual([stays!.connectionId]);
      expect(await following(scopeId, job(2))).toEqual([stays!.connectionId]);
      expect(await store().find(stays!.connectionId)).toEqual(stays);
    });

    test('a socket closed before it subscribes is not brought back: the subscription is refused and nothing follows the record', async () => {
      const scopeId = freshScope();
      const socket = await opened(scopeId, 'a');
      await store().close(socket.connectionId);
      expect(await store().subscribe(socket, job(1), 10)).toBe('full');
      expect(await store().find(socket.connectionId)).toBeUndefined();
      expect(await following(scopeId, job(1))).toEqual([]);
    });
  });
}
