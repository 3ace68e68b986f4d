/**
 * The local stack's live-update pusher: what the table stream and the pusher function do on AWS. The
 * table's write watcher reports each job, product or avatar written; they are pushed one batch after
 * another, so a record's updates leave in the order its writes were made and each shows the record
 * as it was read after its write.
 */
import type { ChangedRecord } from '#domain/live-updates';
import type { PortSource } from '#ports/ports';
import type { UpdatePusher } from '#ports/update-sockets';
import { pushUpdates } from '#use-cases/push-updates';

export function localUpdatePusher(dependencies: PortSource, pusher: UpdatePusher, log: (line: string) => void) {
  let chain: Promise<void> = Promise.resolve();
  return {
    changed(records: ChangedRecord[]): void {
      // Never rejects: a failed push is logged, and the next change pushes the record as it is then.
      chain = chain
        .then(() => pushUpdates(dependencies(), pusher, records))
        .then(
          () => undefined,
          (error) => log(`live updates: a push failed: ${String(error)}`),
        );
    },
    /** Resolves once every change reported so far was pushed. */
    idle: (): Promise<void> => chain,
  };
}
