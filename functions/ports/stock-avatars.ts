/**
 * The stock avatars (domain/stock-avatars) as avatar records: a catalogue every account sees, merged
 * into its avatars by the use cases (find-avatar.ts), with portraits the offline engine draws once
 * per stack into the blob store.
 */
import type { Avatar } from '#domain/avatar';

export interface StockAvatars {
  /** Every stock avatar as `accountId` sees it, in the catalogue's order. No I/O. */
  list(accountId: number): Avatar[];
  /** The stock avatar `avatarId`, or undefined when it is not one. No I/O. */
  get(accountId: number, avatarId: number): Avatar | undefined;
  /**
   * Makes sure their portraits are in the blob store: drawn the first time a stack needs them, found
   * afterwards. Drawing needs the native modules: only the functions that have them (avatars, render)
   * bundle it; elsewhere a missing portrait throws.
   */
  ensureImages(): Promise<void>;
}
