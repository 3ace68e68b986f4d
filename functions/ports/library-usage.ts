/** How full an account's saved-reaction library is, read from the same count its cap admits saves by. */
export interface LibraryUsage {
  count(accountId: number): Promise<number>;
}
