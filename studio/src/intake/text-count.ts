/** Characters as the API counts them, for the live counters beside the fields it limits. */
import type { TextLimit } from './limits';

export function countOf(limit: TextLimit, text: string): number {
  return [...(limit.counting === 'trimmed' ? text.trim() : text)].length;
}

export interface Count {
  count: number;
  max: number;
  /** Characters past the limit; 0 within it. */
  over: number;
}

export function counted(limit: TextLimit, text: string): Count {
  const count = countOf(limit, text);
  return { count, max: limit.max, over: Math.max(0, count - limit.max) };
}

/** What a field says when its text is past the limit, or null. */
export function overLimit(limit: TextLimit, text: string, what = 'This'): string | null {
  const { over, max } = counted(limit, text);
  if (!over) return null;
  return `${what} is ${over} character${over === 1 ? '' : 's'} too long: at most ${max}`;
}
