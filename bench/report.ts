/** What a benchmark section hands back, and how it is printed: small tables with targets and flags. */

/** A figure that has a ceiling: PASS when value <= max. */
export interface Target {
  what: string;
  value: number;
  max: number;
  unit: string;
}

export interface Table {
  title: string;
  head: string[];
  rows: string[][];
}

export interface SectionResult {
  tables: Table[];
  /** Every judged figure, for the summary and the JSON record. */
  targets: Target[];
  /** Free lines printed under the tables (what dominates a bundle, what a miss means). */
  notes: string[];
  /** Raw figures kept in .bench/last-run.json. */
  data: Record<string, unknown>;
}

/** Where a section writes its progress lines. */
type Log = (line: string) => void;

/** A default as the type a run may set it to: 3 → number, `readonly [20, 5000]` → number[]. */
type Settable<T> = T extends number ? number : T extends string ? string : T extends boolean ? boolean : T extends readonly (infer U)[] ? Settable<U>[] : T;

/**
 * A section's options: the fields of its defaults (an `as const` object, the one place they are
 * named and documented), each settable, and where its progress lines go.
 */
export type SectionOptions<Defaults> = { -readonly [K in keyof Defaults]: Settable<Defaults[K]> } & { log: Log };

export const passes = (t: Pick<Target, 'value' | 'max'>) => t.value <= t.max;
export const flag = (t: Pick<Target, 'value' | 'max'>) => (passes(t) ? 'PASS' : 'MISS');

/** Nearest-rank percentile of an already sorted array. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : String(n));

export function renderTable(table: Table): string {
  const widths = table.head.map((h, i) => Math.max(h.length, ...table.rows.map((r) => (r[i] ?? '').length)));
  // First column left-aligned (names), the others right-aligned (figures).
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [
    `  ${table.title}`,
    `  ${line(table.head)}`,
    `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`,
    ...table.rows.map((r) => `  ${line(r)}`),
  ].join('\n');
}
