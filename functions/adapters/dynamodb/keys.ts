/**
 * Single-table key design. Everything an account owns lives in its partition (`ACCOUNT#<id>`), so a
 * foreign id simply is not found there. Items that must be reached without knowing the account
 * (an API key by its hash, a key by its id, global id counters, rate windows) get their own partitions.
 */

/** Fixed-width ids sort numerically inside a partition, so newest-first is a reverse Query. */
export const padId = (id: number) => String(id).padStart(12, '0');

export const keys = {
  account: (accountId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: 'PROFILE' }),
  accountPartition: (accountId: number) => `ACCOUNT#${accountId}`,

  apiKeyByHash: (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'APIKEY' }),
  apiKeyOfAccount: (accountId: number, keyId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `APIKEY#${padId(keyId)}` }),
  apiKeyIdIndex: (keyId: number) => `KEYID#${keyId}`,

  /** A studio user in its account's partition; the claim on its email is what makes an email one user's. */
  user: (accountId: number, userId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `USER#${padId(userId)}` }),
  emailClaim: (email: string) => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' }),
  /** A password-reset token's hash, naming its user; the pending reset itself is kept on the user item. */
  passwordReset: (tokenHash: string) => ({ pk: `PWRESET#${tokenHash}`, sk: 'PWRESET' }),
  /** A session by its token's hash; gsi1 lists a user's sessions, so a password change revokes the others. */
  session: (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  sessionsOfUserIndex: (userId: number) => `USERSESSIONS#${userId}`,

  product: (accountId: number, productId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `PRODUCT#${padId(productId)}` }),
  productPrefix: 'PRODUCT#',

  avatar: (accountId: number, avatarId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `AVATAR#${padId(avatarId)}` }),
  avatarPrefix: 'AVATAR#',

  /** An account's own music track (the built-in ones are no records). */
  musicTrack: (accountId: number, trackId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `MUSIC#${padId(trackId)}` }),
  musicPrefix: 'MUSIC#',

  /** A payment provider's event applied to the account's plan: written with the change, so a redelivery changes nothing. */
  billingEvent: (accountId: number, eventId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `BILLINGEVENT#${eventId}` }),

  counter: (name: string) => ({ pk: `COUNTER#${name}`, sk: 'COUNTER' }),
  rateWindow: (bucket: string, windowStart: number) => ({ pk: `RATE#${bucket}`, sk: `W#${windowStart}` }),

  allowancePeriod: (accountId: number, period: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `ALLOWANCE#${period}` }),
  allowanceEntry: (accountId: number, jobId: number, chargeNumber: number) => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `CHARGE#${padId(jobId)}#${chargeNumber}`,
  }),
  /** Units still only reserved sit in a sparse sharded index (gsi2), so the sweeper finds those whose job ended without settling them. */
  reservedUnitsIndex: 'RESERVED_UNITS',

  job: (accountId: number, jobId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `JOB#${padId(jobId)}` }),
  jobPrefix: 'JOB#',
  /** The job a key names (the inverse of `job`), or null for any other item's key. */
  jobOfKey: (key: { pk: string; sk: string }): { accountId: number; jobId: number } | null => {
    const account = /^ACCOUNT#([1-9][0-9]{0,15})$/.exec(key.pk);
    const job = /^JOB#([0-9]{12})$/.exec(key.sk);
    if (!account || !job || Number(job[1]) < 1) return null;
    return { accountId: Number(account[1]), jobId: Number(job[1]) };
  },
  /**
   * Jobs not yet done or failed sit in a sparse sharded index (gsi2), so a restarted local runner, or
   * an operator, finds every job still in flight without scanning the table, and the sweeper the few
   * it must look at (job-watch in the domain says which).
   */
  activeJobsIndex: 'ACTIVE_JOBS',
  /**
   * Demos being normalised and prompt avatars being generated sit in sparse indexes (gsi1), sorted by
   * when they started, so the sweeper finds those stuck past their deadline without scanning the table.
   */
  processingDemosIndex: 'PROCESSING_DEMOS',
  processingAvatarsIndex: 'PROCESSING_AVATARS',
  /** Recent job durations of one kind, for quotes: a partition per kind, so no one key takes every job's write. */
  jobDurations: (kind: string) => ({ pk: `JOBDURATIONS#${kind}`, sk: 'JOBDURATIONS' }),
  /** The answer of a creating POST sent with an Idempotency-Key (not a job's or a batch's: those have their own). */
  idempotentAnswer: (accountId: number, keyHash: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `ANSWER#${keyHash}` }),
  jobIdempotency: (accountId: number, keyHash: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `IDEMPOTENCY#${keyHash}` }),
  /** A batch of jobs (POST /videos/batch) and its Idempotency-Key, apart from single jobs' keys. */
  batch: (accountId: number, batchId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `BATCH#${padId(batchId)}` }),
  batchIdempotency: (accountId: number, keyHash: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `BATCHIDEMPOTENCY#${keyHash}` }),

  video: (accountId: number, videoId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `VIDEO#${padId(videoId)}` }),
  videoPrefix: 'VIDEO#',

  reaction: (accountId: number, reactionId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `REACTION#${padId(reactionId)}` }),
  reactionPrefix: 'REACTION#',
  /** One saved reaction per job: this marker makes the save idempotent and race-free. */
  reactionOfJob: (accountId: number, jobId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: `SAVEDFROM#${padId(jobId)}` }),
  libraryCounter: (accountId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: 'LIBRARY' }),

  /** One per (account, social provider): the sealed provider key and its cached channels. */
  connection: (accountId: number, provider: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `CONNECTION#${provider}` }),
  connectionPrefix: 'CONNECTION#',

  /** A direct upload, found only within its account's partition. */
  upload: (accountId: number, uploadId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `UPLOAD#${uploadId}` }),

  /** Webhook endpoints, capped per account by the count item beside them. */
  webhookEndpoint: (accountId: number, endpointId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `WEBHOOK#${endpointId}` }),
  webhookEndpointPrefix: 'WEBHOOK#',
  webhookCount: (accountId: number) => ({ pk: `ACCOUNT#${accountId}`, sk: 'WEBHOOKCOUNT' }),
  /** Event ids begin with their time, so an account's events sort in the order they were raised. */
  webhookEvent: (accountId: number, eventId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `WHEVENT#${eventId}` }),
  webhookEventPrefix: 'WHEVENT#',
  /** Events written with their state change and not yet fanned out sit in a sparse sharded index (gsi2), oldest first in each shard. */
  webhookOutboxIndex: 'WEBHOOK_OUTBOX',
  webhookDelivery: (accountId: number, endpointId: string, deliveryId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `WHDELIVERY#${endpointId}#${deliveryId}` }),
  webhookDeliveryPrefix: (endpointId: string) => `WHDELIVERY#${endpointId}#`,
  /** Deliveries due for an attempt sit in a sparse sharded index (gsi2) sorted by when they are due. */
  webhookDueIndex: 'WEBHOOK_DUE',
  /** A pending delivery's place in its lane (endpoint and order key): only the lane's oldest is ever due. */
  webhookLane: (accountId: number, endpointId: string, orderKey: string, deliveryId: string) => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `${webhookLanePrefix(endpointId, orderKey)}${deliveryId}`,
  }),

  /** Live updates (ports/update-sockets): a ticket by its hash, a socket by API Gateway's connection id. */
  updateTicket: (hash: string) => ({ pk: `UPDATETICKET#${hash}`, sk: 'UPDATETICKET' }),
  updateSocket: (connectionId: string) => ({ pk: `UPDATESOCKET#${connectionId}`, sk: 'UPDATESOCKET' }),
  /** A socket following one record, in the record's own partition: a record's subscribers are one Query. */
  updateSubscription: (scopeId: number, topicKey: string, connectionId: string) => ({ pk: `ACCOUNT#${scopeId}`, sk: `UPDATESUB#${topicKey}#${connectionId}` }),
  updateSubscriptionPrefix: (topicKey: string) => `UPDATESUB#${topicKey}#`,

  seedMarker: (name: string) => ({ pk: `SEED#${name}`, sk: 'SEED' }),

  /**
   * Per account and collection: the item count that lists answer as `meta.total` and caps are checked
   * against, moved in the same transaction as every create and delete (collection-counter.ts).
   */
  collectionCounter: (accountId: number, collection: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `COUNT#${collection}` }),
  /** Blocks of a collection's id range with their item counts, so a deep page is found without reading earlier items. */
  collectionBlock: (accountId: number, collection: string, generation: number, start: number) => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `${collectionBlockPrefix(collection, generation)}${padId(start)}`,
  }),
};

export const webhookLanePrefix = (endpointId: string, orderKey: string) => `WHLANE#${endpointId}#${orderKey}#`;

export const collectionBlockPrefix = (collection: string, generation: number) => `BLOCK#${collection}#${String(generation).padStart(16, '0')}#`;

export const GSI1 = 'gsi1';
/** The sharded in-flight sets (shards.ts). Items written before they were sharded sit in one gsi1 partition per set, read still (shards.ts `LEGACY`). */
export const GSI2 = 'gsi2';
