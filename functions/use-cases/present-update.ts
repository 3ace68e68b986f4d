/**
 * A live update's `data`: the record a topic names, as its GET answers it (present-records.ts), read in
 * the subscriber's scope, so another account's id is simply not found.
 */
import type { UpdateTopic } from '#domain/live-updates';
import type { Ports } from '#ports/ports';
import { presentAvatar, presentJob, presentProduct } from './present-records';

export type PresentUpdateDeps = Pick<Ports, 'jobs' | 'products' | 'avatars' | 'blobs'>;

/** The record as its GET answers it, or undefined when the scope has no such record. */
export async function presentTopic(deps: PresentUpdateDeps, scopeId: number, topic: UpdateTopic): Promise<unknown> {
  switch (topic.resource) {
    case 'job': {
      const job = await deps.jobs.get(scopeId, topic.id);
      return job && presentJob(deps.blobs, job);
    }
    case 'product': {
      const product = await deps.products.get(scopeId, topic.id);
      return product && presentProduct(deps.blobs, product);
    }
    case 'avatar': {
      // Stock avatars are always ready and never change (the socket's subscribe refuses them first).
      const avatar = await deps.avatars.get(scopeId, topic.id);
      return avatar && presentAvatar(deps.blobs, avatar);
    }
  }
}
