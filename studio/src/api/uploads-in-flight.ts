/**
 * How many uploads are on their way to storage right now, for the whole studio: leaving the page
 * (another page of the studio, a reload, closing the tab) would drop them, so the shell asks first.
 */
import { useSyncExternalStore } from 'react';

let inFlight = 0;
const listeners = new Set<() => void>();

const changed = () => listeners.forEach((listener) => listener());

/** Counts one upload until the answered function is called (once). */
export function beginUpload(): () => void {
  inFlight += 1;
  changed();
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inFlight -= 1;
    changed();
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useUploadsInFlight(): number {
  return useSyncExternalStore(subscribe, () => inFlight);
}
