/**
 * The registry of ports: every way the use cases, operations and pipeline steps reach outside the
 * process, by name. It is a type, not an object any runtime builds whole for a function: each use case,
 * operation group, pipeline task and worker names the ports it uses (`Pick<Ports, ...>`), and each
 * function's wiring supplies exactly its handler's, so a port left out is a compile error. The local
 * stack (lib/local/wiring.ts) and the tests (test/support/wiring.ts) build every port, which satisfies
 * any handler.
 */
import type { BackgroundTasks } from './background-tasks';
import type { BlobStore } from './blob-store';
import type { AccountStore } from './account-store';
import type { ApiKeyStore } from './api-key-store';
import type { UserStore } from './user-store';
import type { IdempotentAnswerStore } from './idempotent-answers';
import type { JobDurationStore } from './job-durations';
import type { SessionStore } from './session-store';
import type { Engines } from './engines';
import type { ProductStore } from './product-store';
import type { AvatarStore } from './avatar-store';
import type { ReactionStore } from './reaction-store';
import type { DemoMedia } from './demo-media';
import type { AvatarImages } from './avatar-images';
import type { CaptionImages } from './caption-images';
import type { JobRunner } from './job-runner';
import type { JobStore } from './job-store';
import type { AllowanceLedger } from './allowance-ledger';
import type { VideoLibrary } from './video-library';
import type { LibraryUsage } from './library-usage';
import type { MediaInspector } from './media-inspector';
import type { FaceFinder } from './face-finder';
import type { ReferenceResolver } from './reference-resolver';
import type { SocialProviders } from './social-provider';
import type { CredentialCipher } from './credential-cipher';
import type { PostStore } from './post-store';
import type { ConnectionStore } from './connection-store';
import type { AnalyticsCache } from './analytics-cache';
import type { RateLimiter } from './rate-limiter';
import type { Metrics } from './metrics';
import type { UploadStore } from './upload-store';
import type { RemoteFiles } from './remote-files';
import type { WebhookStore } from './webhook-store';
import type { WebhookReceivers } from './webhook-receivers';
import type { MusicStore } from './music-store';
import type { MusicMedia } from './music-media';
import type { SoundBank } from './sound-bank';
import type { VideoComposer } from './video-composer';
import type { SampleDemo } from './sample-demo';
import type { StockAvatars } from './stock-avatars';
import type { Mailer } from './mailer';
import type { Billing } from './billing';
import type { UpdateSocketStore } from './update-sockets';

export interface Ports {
  /** Starts video jobs and hands preview decisions to their executions. */
  jobRunner: JobRunner;
  /** Work that outlives the request (demo normalisation, hosted avatar generation). */
  tasks: BackgroundTasks;
  /** Media objects: uploads, renders, finished videos. */
  blobs: BlobStore;
  /** Avatars, reaction clips and hook ideas. */
  engines: Engines;
  /** The built-in music beds and reaction effects, rendered on first use. */
  sounds: SoundBank;
  /** Fetches a motion job's reference link. */
  references: ReferenceResolver;
  /** Products and their demo videos. */
  products: ProductStore;
  /** Avatars, capped per plan. */
  avatars: AvatarStore;
  /** The stock avatars every account has besides its own (find them through use-cases/find-avatar.ts). */
  stockAvatars: StockAvatars;
  /** The sample product's demo clip, made once per stack: found everywhere, made only by the sample-demo worker. */
  sampleDemo: SampleDemo;
  /** The saved-reaction library. */
  reactions: ReactionStore;
  /** The account's own music tracks (the built-in ones are domain/sound's list). */
  music: MusicStore;
  /** Judges and levels uploaded music (ffprobe, ffmpeg): only the functions that take music bundle it. */
  musicMedia: MusicMedia;
  /** Judges and normalises demo videos (ffprobe, ffmpeg): only the functions that do bundle it. */
  demoMedia: DemoMedia;
  /** Checks and re-encodes uploaded avatar images (sharp): only the avatars function bundles it. */
  avatarImages: AvatarImages;
  captionImages: CaptionImages;
  /** Encodes a job's preview, finished video and poster (ffmpeg): only the render function bundles it. */
  composer: VideoComposer;
  /** Video jobs and their Idempotency-Keys; the writes that also reserve an allowance unit. */
  jobs: JobStore;
  /** Settles and reads the monthly allowance. */
  ledger: AllowanceLedger;
  /** Finished videos. */
  videos: VideoLibrary;
  /** Direct uploads: one record per presigned form, used once. */
  uploads: UploadStore;
  /** Files a request links to (demo_video_url, image_url), fetched from public addresses only. */
  remoteFiles: RemoteFiles;
  /** How full each account's saved-reaction library is. */
  library: LibraryUsage;
  /** Judges uploaded reference clips (ffprobe): only the functions that take uploads bundle it. */
  media: MediaInspector;
  /** Finds the face an uploaded avatar image or reference clip must show (human): only the functions that take them bundle it. */
  faces: FaceFinder;
  /** The scheduling provider's adapter, by provider name. */
  social: SocialProviders;
  /** Seals provider credentials at rest (KMS on AWS, the data dir's key file locally). */
  cipher: CredentialCipher;
  /** Social posts. */
  posts: PostStore;
  /** Provider connections, credentials sealed. */
  connections: ConnectionStore;
  /** Each provider's last analytics sync. */
  analytics: AnalyticsCache;
  /** Limits shared by every instance (requests per minute, AI helper quotas, analytics syncs). */
  rateLimits: RateLimiter;
  accounts: AccountStore;
  /** The payment provider behind paid plans: none locally, Stripe on AWS once configured. */
  billing: Billing;
  /** The keys requests authenticate with. */
  apiKeys: ApiKeyStore;
  /** Studio users and their password hashes. */
  users: UserStore;
  /** Studio sessions (the `rs_session` cookie), revocable, expiring. */
  sessions: SessionStore;
  /** Mails to people (password-reset links): SES on AWS, the data dir's outbox locally. */
  mailer: Mailer;
  /**
   * The studio's address, where mailed links point. Configured (STUDIO_URL on AWS, the server's own
   * address locally), never taken from a request's Host, which a caller may forge to have a reset
   * link point at its own site. A function: the local server knows its port only once it listens.
   */
  studioUrl: () => string;
  /**
   * The API's own address (origin, no path), where a hosted engine's webhooks reach it: set, a
   * generation on such an engine waits by callback (domain/provider-wait.ts) and no Lambda waits on
   * the provider; unset, the step waits for the provider itself.
   */
  providerCallbackUrl?: () => string | undefined;
  /** Where live-update sockets connect (UPDATES_URL on AWS: the WebSocket API's stage; the server's own address locally). */
  updatesUrl: () => string;
  /** The answers of creating POSTs sent with an Idempotency-Key, to give again to a repeat. */
  idempotentAnswers: IdempotentAnswerStore;
  /** How long recent jobs took, by kind: what quotes estimate from. */
  jobDurations: JobDurationStore;
  /** Requests per rolling minute per account: the contract's 120 unless the local stack was started with another. */
  apiRequestsPerMinute: number;
  /** Seconds a preview waits for a decision (domain/preview-wait): 30 days unless the local stack was started with less. */
  previewWaitS: number;
  /** The largest multipart body taken inline (AWS: what API Gateway and Lambda carry); unset: the route table's sizes. */
  inlineUploadMaxBytes?: number;
  /** The time every rule is decided against; tests pass a fixed clock. */
  now: () => Date;
  /** Live updates' tickets, open sockets and their subscriptions (domain/live-updates). */
  updateSockets: UpdateSocketStore;
  /** Webhook endpoints, the outbox of events and their deliveries. */
  webhooks: WebhookStore;
  /** Where events are sent: vets receivers' addresses and sends attempts (loopback only on the local stack). */
  webhookReceivers: WebhookReceivers;
  /** Business metrics (jobs, render time, charges, refused uploads): CloudWatch on AWS, debug log lines locally. */
  metrics: Metrics;
}

/** Built lazily: a Lambda's first invocation builds its ports, tests and the local stack pass their own. */
export type PortSource<P = Ports> = () => P;

/** The ports a use case or step reaches (its first parameter): what an operation or worker that calls it names in turn. */
export type NeedsOf<F> = F extends (needs: infer D, ...rest: never[]) => unknown ? D : never;

/**
 * Some members of one port, for a use that reaches only those: a function then supplies (and bundles)
 * only their adapters, such as the hook engine without the avatar and reaction engines.
 */
export type PartOf<K extends keyof Ports, M extends keyof Ports[K]> = { [P in K]: Pick<Ports[K], M> };

/** `A | B` as `A & B`: the ports a group of operations or steps reaches together. */
export type AllOf<U> = (U extends unknown ? (union: U) => void : never) extends (all: infer I) => void ? I : never;

/** The registry's ports among `D`, leaving what a caller adds itself (a use case's `log`). */
export type PortsIn<D> = Pick<D, Extract<keyof D, keyof Ports>>;
