/**
 * Pushes changed records to the sockets that follow them: each record is read once, as its GET answers
 * it, and posted to each subscriber; a connection API Gateway says is gone (410) has its records
 * removed. A record nobody follows costs one Query.
 */
import { topicKey, type ChangedRecord, type ServerMessage } from '#domain/live-updates';
import type { Ports } from '#ports/ports';
import type { UpdatePusher } from '#ports/update-sockets';
import { presentTopic, type PresentUpdateDeps } from './present-update';

export type PushUpdatesDeps = PresentUpdateDeps & Pick<Ports, 'updateSockets'>;

/** Changes in the order they were made; a record changed twice is pushed once, as it is now. Answers how many messages went out. */
export async function pushUpdates(deps: PushUpdatesDeps, pusher: UpdatePusher, changes: readonly ChangedRecord[]): Promise<number> {
  const unique = new Map<string, ChangedRecord>();
  for (const change of changes) unique.set(`${change.scopeId}|${topicKey(change.topic)}`, change);
  let sent = 0;
  // One record after another: a subscriber gets a record's updates in the order its changes were read.
  for (const change of unique.values()) sent += await pushOne(deps, pusher, change);
  return sent;
}

async function pushOne(deps: PushUpdatesDeps, pusher: UpdatePusher, { scopeId, topic }: ChangedRecord): Promise<number> {
  const subscribers = await deps.updateSockets.subscribers(scopeId, topic);
  if (subscribers.length === 0) return 0;
  const data = await presentTopic(deps, scopeId, topic);
  // Deleted: nothing to show; the subscriptions lapse with their sockets.
  if (data === undefined) return 0;
  const message: ServerMessage = { type: 'update', ...topic, data };
  const text = JSON.stringify(message);
  const outcomes = await Promise.all(
    subscribers.map(async (connectionId) => {
      const outcome = await pusher.post(connectionId, text);
      if (outcome === 'gone') await deps.updateSockets.close(connectionId);
      return outcome;
    }),
  );
  return outcomes.filter((o) => o === 'sent').length;
}
