/**
 * An account's counted collections: each keeps its size beside its items, so `meta.total` and plan
 * caps are one read whatever the collection's size.
 */

export const COLLECTION_NAMES = ['products', 'videos', 'posts', 'avatars', 'music'] as const;

export type CollectionName = (typeof COLLECTION_NAMES)[number];

export interface CollectionRef {
  accountId: number;
  collection: CollectionName;
}
