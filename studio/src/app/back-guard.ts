/**
 * The browser's Back button, held while an upload is in flight. BrowserRouter has no blocker (the
 * data router that has one would add 18.6 KB to the first load), so the page puts a copy of its own
 * history entry on top: Back then lands on the same address (nothing unmounts, the upload goes on),
 * the copy is put back and the page asks. Leaving goes back past both entries; an upload that ends
 * first takes the copy away again, so Back works as before.
 */

/** What of `window` the guard uses (tests pass a history of their own). */
export interface HistoryWindow {
  history: { readonly state: unknown; pushState(data: unknown, unused: string): void; go(delta?: number): void };
  addEventListener(type: 'popstate', listener: () => void): void;
  removeEventListener(type: 'popstate', listener: () => void): void;
}

export interface BackHold {
  /** Leave after all: back past the copy and the page's own entry. */
  leave(): void;
  /** Stop holding (the upload ended, or the page is leaving otherwise). */
  release(): void;
}

const HELD = 'reactionStudioBackHeld';

const isHeld = (state: unknown) => typeof state === 'object' && state !== null && (state as Record<string, unknown>)[HELD] === true;

/** The router keeps its own keys in the entry's state: the copy carries them, so the router sees the same location. */
function copyOf(state: unknown): Record<string, unknown> {
  return { ...(typeof state === 'object' && state !== null ? state : {}), [HELD]: true };
}

export function holdBack(win: HistoryWindow, onBack: () => void): BackHold {
  let holding = true;
  const hold = () => win.history.pushState(copyOf(win.history.state), '');
  const popped = () => {
    // Back (or Forward) left the copy: stand on it again and ask.
    if (!holding || isHeld(win.history.state)) return;
    hold();
    onBack();
  };
  const stop = () => {
    holding = false;
    win.removeEventListener('popstate', popped);
  };
  hold();
  win.addEventListener('popstate', popped);
  return {
    leave() {
      if (!holding) return;
      stop();
      win.history.go(-2);
    },
    release() {
      if (!holding) return;
      stop();
      // Only while the copy is on top: once another page was opened above it, it is an ordinary entry.
      if (isHeld(win.history.state)) win.history.go(-1);
    },
  };
}
