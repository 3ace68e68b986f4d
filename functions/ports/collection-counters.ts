/**
 * The operator's view of the collection counters: what a counter says, and a recount from the items
 * that is safe beside live traffic (run after a restore, or once after counters were first deployed).
 */
import type { CollectionRef } from '#domain/collections';

export interface CollectionCounters {
  /** The counter's value; null when the collection was never counted. */
  storedCount(ref: CollectionRef): Promise<number | null>;
  /** Counts the collection from its items and swaps the count in; returns it. */
  recount(ref: CollectionRef): Promise<number>;
}
