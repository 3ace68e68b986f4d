/**
 * The schedule field is a native `datetime-local` input (no date picker is installed): its value is
 * local wall time without an offset, while the API wants ISO 8601 with one.
 */

/** `YYYY-MM-DDTHH:mm` in local time, as a datetime-local input shows it. */
export function toLocalInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The input's local wall time as UTC ISO, or null when it is empty or not a date. */
export function localInputToIso(value: string): string | null {
  if (!value) return null;
  // A date-time string without an offset is read as local time, which is what the person typed.
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

const MAX_AHEAD_MS = 365 * 24 * 60 * 60 * 1000;

/** Words for a schedule the API would refuse (it must be in the future, at most 365 days ahead). */
export function scheduleProblem(value: string, now = Date.now()): string | null {
  const iso = localInputToIso(value);
  if (!iso) return 'Choose a date and time';
  const at = Date.parse(iso);
  if (at <= now) return 'Choose a time in the future';
  if (at - now > MAX_AHEAD_MS) return 'Choose a time at most a year ahead';
  return null;
}

export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
