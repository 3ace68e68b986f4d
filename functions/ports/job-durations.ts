/**
 * How long recent jobs took to their next stop, by kind (method and path: an auto job to `done`, with
 * the hook over the demo or not; a preview to `preview_ready`), so a quote's `estimated_seconds`
 * follows this stack rather than a table. A few slots per kind, each holding its latest sample.
 */
export interface JobDurationStore {
  /** Puts `seconds` in `slot` of `kind`, in place of what it held. */
  record(kind: string, slot: number, seconds: number): Promise<void>;
  /** The samples `kind` holds now, in no order. */
  samples(kind: string): Promise<number[]>;
}
