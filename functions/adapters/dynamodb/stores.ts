/** Every record store the service keeps in its one DynamoDB table: the same on AWS and locally. */
import type { Ports } from '#ports/ports';
import type { DynamoTable } from './table';
import { DynamoAccountStore } from './accounts';
import { DynamoApiKeyStore } from './api-keys';
import { DynamoUserStore } from './users';
import { DynamoSessionStore } from './sessions';
import { DynamoIdempotentAnswers } from './idempotent-answers';
import { DynamoRateLimiter } from './rate-limiter';
import { DynamoProductStore } from './products';
import { DynamoAvatarStore } from './avatars';
import { DynamoReactionStore } from './reactions';
import { DynamoJobStore } from './jobs';
import { DynamoJobDurations } from './job-durations';
import { DynamoAllowanceLedger } from './allowance-ledger';
import { DynamoVideoLibrary } from './videos';
import { DynamoLibraryUsage } from './library';
import { DynamoPostStore } from './posts';
import { DynamoConnectionStore } from './connections';
import { DynamoAnalyticsCache } from './analytics-cache';
import { DynamoUploadStore } from './uploads';
import { DynamoWebhookStore } from './webhooks';
import { DynamoMusicStore } from './music';
import { DynamoUpdateSocketStore } from './update-sockets';

/** One store of each record the table keeps, by port. */
export function dynamoStores(table: DynamoTable) {
  return {
    accounts: new DynamoAccountStore(table),
    apiKeys: new DynamoApiKeyStore(table),
    users: new DynamoUserStore(table),
    sessions: new DynamoSessionStore(table),
    idempotentAnswers: new DynamoIdempotentAnswers(table),
    rateLimits: new DynamoRateLimiter(table),
    products: new DynamoProductStore(table),
    avatars: new DynamoAvatarStore(table),
    music: new DynamoMusicStore(table),
    reactions: new DynamoReactionStore(table),
    jobs: new DynamoJobStore(table),
    jobDurations: new DynamoJobDurations(table),
    ledger: new DynamoAllowanceLedger(table),
    videos: new DynamoVideoLibrary(table),
    library: new DynamoLibraryUsage(table),
    posts: new DynamoPostStore(table),
    connections: new DynamoConnectionStore(table),
    analytics: new DynamoAnalyticsCache(table),
    uploads: new DynamoUploadStore(table),
    webhooks: new DynamoWebhookStore(table),
    updateSockets: new DynamoUpdateSocketStore(table),
  } satisfies Partial<Ports>;
}

type TableStores = Pick<Ports, keyof ReturnType<typeof dynamoStores>>;

/** The ports the table serves: a function that carries only some of them names which (functions/wiring/table-stores.ts). */
export type TableStorePort = keyof TableStores;
