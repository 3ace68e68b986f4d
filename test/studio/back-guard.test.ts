/** The browser's Back button held while an upload is in flight (studio/src/app/back-guard.ts). */
import { holdBack, type HistoryWindow } from '../../studio/src/app/back-guard';

const { max, min } = Math;

/** A tab's session history: entries with their address and state, Back and Forward as `go`. */
class Tab implements HistoryWindow {
  entries: { url: string; state: unknown }[];
  index: number;
  private readonly listeners = new Set<() => void>();

  constructor(...urls: string[]) {
    this.entries = urls.map((url, i) => ({ url, state: { key: `k${i}`, idx: i } }));
    this.index = urls.length - 1;
    this.moveTo(this.index);
  }

  get url() {
    return this.entries[this.index]!.url;
  }

  /** `state` is the current entry's, as in a browser. */
  readonly history = {
    state: undefined as unknown,
    pushState: (state: unknown) => {
      this.entries = [...this.entries.slice(0, this.index + 1), { url: this.url, state }];
      this.moveTo(this.index + 1);
    },
    go: (delta = 0) => {
      this.moveTo(max(0, min(this.entries.length - 1, this.index + delta)));
      for (const listener of [...this.listeners]) listener();
    },
  };

  private moveTo(index: number) {
    this.index = index;
    this.history.state = this.entries[index]!.state;
  }

  open(url: string) {
    this.entries = [...this.entries.slice(0, this.index + 1), { url, state: { key: url } }];
    this.moveTo(this.index + 1);
  }

  addEventListener(_type: 'popstate', listener: () => void) {
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'popstate', listener: () => void) {
    this.listeners.delete(listener);
  }
}

const tab = (...urls: string[]) => new Tab(...urls);

describe('holdBack', () => {
  test('Back stays on the page and asks, every time; the router keeps its own keys in the copy', () => {
    const t = tab('/videos', '/create');
    let asked = 0;
    holdBack(t, () => (asked += 1));
    expect(t.history.state).toMatchObject({ key: 'k1', idx: 1 });
    t.history.go(-1);
    expect([t.url, asked]).toEqual(['/create', 1]);
    t.history.go(-1);
    expect([t.url, asked]).toEqual(['/create', 2]);
  });

  test('leaving after all goes back to the page before', () => {
    const t = tab('/videos', '/create');
    const hold = holdBack(t, () => undefined);
    t.history.go(-1);
    hold.leave();
    expect(t.url).toBe('/videos');
    // Released: Back and Forward are the browser's again.
    hold.release();
    t.history.go(-1);
    expect(t.url).toBe('/videos');
  });

  test('an upload that ends takes the copy away: one Back leaves the page, nothing is asked', () => {
    const t = tab('/videos', '/create');
    let asked = 0;
    const hold = holdBack(t, () => (asked += 1));
    hold.release();
    expect(t.url).toBe('/create');
    t.history.go(-1);
    expect([t.url, asked]).toEqual(['/videos', 0]);
  });

  test('once another page was opened above the copy, releasing leaves history alone', () => {
    const t = tab('/videos', '/create');
    const hold = holdBack(t, () => undefined);
    t.open('/products');
    hold.release();
    expect(t.url).toBe('/products');
    hold.leave();
    expect(t.url).toBe('/products');
  });
});
