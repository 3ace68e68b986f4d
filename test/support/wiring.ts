/**
 * The tests' wiring: every port of the registry (so any handler takes it), for code under test that runs without a stack, and a job runner
 * that a test points elsewhere (a runner that fails on purpose, a second runner over the same steps).
 */
import type { Ports } from '#ports/ports';
import type { Engines } from '#ports/engines';
import type { JobDecision, JobExecutionInput } from '#domain/job-execution';
import type { JobRunner } from '#ports/job-runner';
import type { ProviderName } from '#domain/social';
import type { SocialProvider, SocialProviders } from '#ports/social-provider';
import { API_REQUESTS_PER_MINUTE } from '#functions/config';
import { PREVIEW_WAIT_MAX_S } from '#domain/preview-wait';
import { RecordingMetrics } from '#test-doubles/memory/metrics';

const unwired = (port: string) => () => {
  throw new Error(`${port} is not wired in this test; pass it to testDependencies()`);
};

/** A port every method of which throws as unwired. */
const unwiredPort = <T extends object>(port: string): T => new Proxy({} as T, { get: (_target, method) => unwired(`${port}.${String(method)}`) });

/** Engines that throw as unwired except those the test passes (spread this, not testDependencies().engines, whose choice throws when read). */
export function testEngines(overrides: Partial<Engines> = {}): Engines {
  const engines = {
    avatar: unwired('engines.avatar'),
    inlineAvatar: unwired('engines.inlineAvatar'),
    get avatarIsInline(): boolean {
      return unwired('engines.avatarIsInline')();
    },
    reaction: unwired('engines.reaction'),
    hooks: unwired('engines.hooks'),
  };
  return Object.defineProperties(engines, Object.getOwnPropertyDescriptors(overrides));
}

/** Every port throws when used unless the test passes it: a test says what its code may reach. */
export function testDependencies(overrides: Partial<Ports> = {}): Ports {
  return {
    jobRunner: { start: unwired('jobRunner'), sendDecision: unwired('jobRunner') },
    tasks: { dispatch: unwired('tasks') },
    blobs: new Proxy({} as Ports['blobs'], { get: (_target, method) => unwired(`blobs.${String(method)}`) }),
    engines: testEngines(),
    sounds: unwiredPort('sounds'),
    references: { name: 'unwired', resolve: unwired('references') },
    products: unwiredPort('products'),
    avatars: unwiredPort('avatars'),
    stockAvatars: unwiredPort('stockAvatars'),
    sampleDemo: unwiredPort('sampleDemo'),
    music: unwiredPort('music'),
    musicMedia: unwiredPort('musicMedia'),
    reactions: unwiredPort('reactions'),
    demoMedia: unwiredPort('demoMedia'),
    avatarImages: unwiredPort('avatarImages'),
    captionImages: unwiredPort('captionImages'),
    composer: unwiredPort('composer'),
    jobs: unwiredPort('jobs'),
    jobDurations: unwiredPort('jobDurations'),
    ledger: unwiredPort('ledger'),
    videos: unwiredPort('videos'),
    uploads: unwiredPort('uploads'),
    webhooks: unwiredPort('webhooks'),
    updateSockets: unwiredPort('updateSockets'),
    webhookReceivers: unwiredPort('webhookReceivers'),
    remoteFiles: unwiredPort('remoteFiles'),
    library: unwiredPort('library'),
    media: unwiredPort('media'),
    faces: unwiredPort('faces'),
    accounts: unwiredPort('accounts'),
    billing: unwiredPort('billing'),
    apiKeys: unwiredPort('apiKeys'),
    users: unwiredPort('users'),
    sessions: unwiredPort('sessions'),
    mailer: unwiredPort('mailer'),
    studioUrl: unwired('studioUrl'),
    updatesUrl: unwired('updatesUrl'),
    idempotentAnswers: unwiredPort('idempotentAnswers'),
    rateLimits: unwiredPort('rateLimits'),
    social: unwired('social'),
    cipher: unwiredPort('cipher'),
    posts: unwiredPort('posts'),
    connections: unwiredPort('connections'),
    analytics: unwiredPort('analytics'),
    apiRequestsPerMinute: API_REQUESTS_PER_MINUTE,
    previewWaitS: PREVIEW_WAIT_MAX_S,
    now: () => new Date(),
    // Metrics observe and decide nothing, so they are wired rather than throwing; a test reads them through its own RecordingMetrics.
    metrics: new RecordingMetrics(),
    ...overrides,
  };
}

/** Forwards to the stack's own runner until a test switches it to another; `reset` switches back. */
export class SwitchableJobRunner implements JobRunner {
  private current: JobRunner;
  constructor(private readonly original: JobRunner) {
    this.current = original;
  }
  use(runner: JobRunner): void {
    this.current = runner;
  }
  reset(): void {
    this.current = this.original;
  }
  start(input: JobExecutionInput): Promise<void> {
    return this.current.start(input);
  }
  sendDecision(taskToken: string, decision: JobDecision): Promise<void> {
    return this.current.sendDecision(taskToken, decision);
  }
}

/** Answers with the stack's own provider adapters until a test swaps one for a double; `reset` swaps all back. */
export class SwitchableSocialProviders {
  private readonly swapped = new Map<ProviderName, SocialProvider>();
  constructor(private readonly original: SocialProviders) {}
  /** What the stack is wired with. */
  readonly providers: SocialProviders = (name, request) => this.swapped.get(name) ?? this.original(name, request);
  /** The stack's own adapter, for a double that delegates to it. */
  real(name: ProviderName): SocialProvider {
    return this.original(name);
  }
  use(name: ProviderName, provider: SocialProvider): void {
    this.swapped.set(name, provider);
  }
  reset(): void {
    this.swapped.clear();
  }
}
