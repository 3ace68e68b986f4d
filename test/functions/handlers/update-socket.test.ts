/**
 * The live-updates socket function (functions/handlers/update-socket.ts) as API Gateway calls it:
 * $connect takes a ticket once, $default answers every message (hostile ones with an error, the socket
 * kept), $disconnect forgets the socket. And the pusher (functions/handlers/update-pusher.ts): stream
 * records in, each changed record posted to its followers, a gone connection forgotten.
 */
import { createHandler as socketHandler } from '#handlers/update-socket';
import { createHandler as pusherHandler } from '#handlers/update-pusher';
import { testDependencies } from '#test-support/wiring';
import { previewReadyJob } from '#test-support/video-jobs';
import { MemoryUpdateSocketStore } from '#test-doubles/memory/update-sockets';
import { MemoryJobStore } from '#test-doubles/memory/job-store';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { issueUpdateTicket } from '#use-cases/update-sockets';
import type { Context } from 'aws-lambda';

const context = { functionName: 'update-socket', awsRequestId: 'req-1' } as Context;
const now = () => new Date('2026-11-30T10:00:00Z');

function world() {
  const updateSockets = new MemoryUpdateSocketStore();
  const jobs = new MemoryJobStore();
  jobs.put(previewReadyJob(1, 7, { status: 'processing', stage: 'composing', progress: 80, preview: undefined }));
  jobs.put(previewReadyJob(2, 8, { status: 'processing', stage: 'composing', progress: 10, preview: undefined }));
  const deps = testDependencies({ updateSockets, jobs, blobs: new MemoryBlobStore(), updatesUrl: () => 'wss://updates.test/v1', now });
  const socket = socketHandler(() => deps);
  const call = (routeKey: string, connectionId: string, extra: object = {}) => socket({ requestContext: { routeKey, connectionId, requestId: 'r1' }, ...extra }, context);
  const say = async (connectionId: string, body: unknown) => JSON.parse((await call('$default', connectionId, { body: typeof body === 'string' ? body : JSON.stringify(body) })).body!);
  return { deps, updateSockets, jobs, call, say };
}

describe('the socket function', () => {
  test('$connect takes a good ticket once; a second use, a made-up one and none are 401 with the reason', async () => {
    const { deps, call, updateSockets } = world();
    const { ticket } = await issueUpdateTicket(deps, 1);
    expect(await call('$connect', 'c1', { queryStringParameters: { ticket } })).toEqual({ statusCode: 200 });
    expect(await updateSockets.find('c1')).toMatchObject({ scopeId: 1 });
    const again = await call('$connect', 'c2', { queryStringParameters: { ticket } });
    expect(again.statusCode).toBe(401);
    expect(JSON.parse(again.body!)).toMatchObject({ code: 'unauthorized', error: expect.stringContaining('POST /api/v1/updates/tickets') });
    expect((await call('$connect', 'c3', { queryStringParameters: { ticket: 'rsu_x' } })).statusCode).toBe(401);
    expect((await call('$connect', 'c4')).statusCode).toBe(401);
  });

  test('a subscription answers the record as it stands; another account\'s id is not found; the socket goes on', async () => {
    const { deps, call, say } = world();
    await call('$connect', 'c1', { queryStringParameters: { ticket: (await issueUpdateTicket(deps, 1)).ticket } });
    expect(await say('c1', { action: 'subscribe', resource: 'job', id: 7 })).toMatchObject({ type: 'subscribed', resource: 'job', id: 7, data: { id: 7, progress: 80 } });
    expect(await say('c1', { action: 'subscribe', resource: 'job', id: 8 })).toEqual({ type: 'error', code: 'not_found', message: 'Job 8 not found', resource: 'job', id: 8 });
    expect(await say('c1', '{nope')).toMatchObject({ type: 'error', code: 'bad_request' });
    expect(await say('c1', { action: 'ping' })).toEqual({ type: 'pong' });
    expect(JSON.parse((await call('$default', 'c1', { body: 'AAEC', isBase64Encoded: true })).body!)).toMatchObject({ code: 'unsupported_media_type' });
  });

  test('a message on a socket that is not open (never, or no longer) is told to connect again', async () => {
    const { say, call, deps } = world();
    expect(await say('ghost', { action: 'subscribe', resource: 'job', id: 7 })).toMatchObject({ type: 'error', code: 'unauthorized' });
    await call('$connect', 'c1', { queryStringParameters: { ticket: (await issueUpdateTicket(deps, 1)).ticket } });
    expect(await call('$disconnect', 'c1')).toEqual({ statusCode: 200 });
    expect(await say('c1', { action: 'subscribe', resource: 'job', id: 7 })).toMatchObject({ type: 'error', code: 'unauthorized' });
  });

  test('an event that is not a WebSocket route event is a wiring fault, thrown', async () => {
    const { deps } = world();
    await expect(socketHandler(() => deps)({ hello: 'world' }, context)).rejects.toThrow(/not a WebSocket route event/);
  });
});

describe('the pusher', () => {
  const record = (eventName: string, pk: string, sk: string, n: number) => ({ eventName, dynamodb: { SequenceNumber: String(n), Keys: { pk: { S: pk }, sk: { S: sk } } } });

  test("posts each changed, followed record once to its followers, as it is now; a gone connection is forgotten", async () => {
    const { deps, call, say, updateSockets, jobs } = world();
    for (const id of ['c1', 'c2']) {
      await call('$connect', id, { queryStringParameters: { ticket: (await issueUpdateTicket(deps, 1)).ticket } });
      await say(id, { action: 'subscribe', resource: 'job', id: 7 });
    }
    jobs.put(previewReadyJob(1, 7, { status: 'done', stage: 'done', progress: 100, preview: undefined }));
    const posted: [string, any][] = [];
    const pusher = { post: async (connectionId: string, text: string) => (connectionId === 'c2' ? ('gone' as const) : (posted.push([connectionId, JSON.parse(text)]), 'sent' as const)) };
    const handler = pusherHandler(() => deps, () => pusher);
    const event = {
      Records: [
        record('MODIFY', 'ACCOUNT#1', 'JOB#000000000007', 1),
        record('MODIFY', 'ACCOUNT#1', 'JOB#000000000007', 2),
        record('MODIFY', 'ACCOUNT#2', 'JOB#000000000008', 3),
        record('REMOVE', 'ACCOUNT#1', 'JOB#000000000007', 4),
        record('INSERT', 'ACCOUNT#1', 'WHEVENT#x', 5),
        { not: 'a record' },
      ],
    };
    expect(await handler(event)).toEqual({ changed: 3, sent: 1 });
    expect(posted).toEqual([['c1', { type: 'update', resource: 'job', id: 7, data: expect.objectContaining({ id: 7, status: 'done', progress: 100 }) }]]);
    expect(await updateSockets.find('c2')).toBeUndefined();
  });
});
