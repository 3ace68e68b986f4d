/**
 * The studio's live updates: the one shared socket (live-updates.ts) over the session, and the hook a
 * page follows a record with. While a record's updates arrive live, its query is asked again only now
 * and then (LIVE_POLL_MS, a safety net: an unchanged record answers 304); otherwise it polls as before.
 */
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { unwrap } from '#client/result';
import { globalWebSocket } from '#client/live-updates';
import { api } from './client';
import { LiveUpdates, type LiveResource } from './live-updates';

const liveUpdates = new LiveUpdates({
  ticket: async () => (await unwrap(api.POST('/updates/tickets'))).data,
  WebSocket: globalWebSocket(),
});

/** How often a record whose updates arrive live is asked for anyway. */
const LIVE_POLL_MS = 15_000;

/** The poll interval for records: `pollMs` unless every one's updates arrive live. */
export const pollingUnlessLive = (resource: LiveResource, ids: number | readonly number[], pollMs: number) =>
  [ids].flat().every((id) => liveUpdates.isLive(resource, id)) ? LIVE_POLL_MS : pollMs;

/** Follows each record of `ids` (empty: none), handing each pushed version to `onData`; answers whether all of them are live. */
export function useLiveRecords(resource: LiveResource, ids: readonly number[], onData: (data: unknown) => void): boolean {
  const take = useEffectEvent(onData);
  const followed = ids.join(',');
  useEffect(() => {
    if (followed === '') return undefined;
    const stops = followed.split(',').map((id) => liveUpdates.follow(resource, Number(id), (data) => take(data)));
    return () => stops.forEach((stop) => stop());
  }, [resource, followed]);
  useSyncExternalStore(liveUpdates.subscribe, liveUpdates.snapshot);
  return ids.length > 0 && ids.every((id) => liveUpdates.isLive(resource, id));
}

/** One record, followed while `active`. */
export const useLiveRecord = (resource: LiveResource, id: number | undefined, active: boolean, onData: (data: unknown) => void): boolean =>
  useLiveRecords(resource, active && id !== undefined ? [id] : [], onData);
