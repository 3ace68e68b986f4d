/**
 * The --wait progress line on stderr, redrawn in place; drawn only when stderr is a terminal, so
 * that logs and pipes get nothing. No progress-bar package is installed, hence this `\r` renderer.
 */
import type { Io } from './output.js';

export interface Progress {
  update(text: string): void;
  done(): void;
}

export function progress(io: Io): Progress {
  if (!io.errIsTty) return { update: () => {}, done: () => {} };
  let width = 0;
  return {
    update(text) {
      io.errRaw(`\r${text.padEnd(width)}`);
      width = Math.max(width, text.length);
    },
    done() {
      if (width > 0) io.errRaw(`\r${' '.repeat(width)}\r`);
      width = 0;
    },
  };
}
