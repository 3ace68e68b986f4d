/**
 * A function's wiring must supply every port its handler's operations, steps or use cases name: one
 * left out is a compile error (`npm run typecheck` holds each `@ts-expect-error` below to an error),
 * not a throw on the first request that reaches it. The local stack and the tests build every port,
 * which satisfies any handler.
 */
import type { createHandler as productsHandler } from '#handlers/products';
import type { createHandler as renderHandler } from '#handlers/job-render';
import type { createHandler as sweeperHandler } from '#handlers/sweeper';
import type { PortSource } from '#ports/ports';
import { testDependencies } from '#test-support/wiring';

/** What a handler module's createHandler asks its wiring for. */
type PortsOf<F extends (ports: PortSource<never>, ...rest: never[]) => unknown> = F extends (ports: PortSource<infer P>, ...rest: never[]) => unknown ? P : never;

type ProductsPorts = PortsOf<typeof productsHandler>;
type RenderPorts = PortsOf<typeof renderHandler>;
type SweeperPorts = PortsOf<typeof sweeperHandler>;

const every = testDependencies();

test('the products function is wired with exactly the ports its operations and the HTTP layer name, no more', () => {
  // A key missing here, or one too many, fails to compile: the record's type is the handler's ports.
  const named: Record<keyof ProductsPorts, true> = {
    apiKeys: true,
    sessions: true,
    rateLimits: true,
    idempotentAnswers: true,
    apiRequestsPerMinute: true,
    inlineUploadMaxBytes: true,
    metrics: true,
    now: true,
    products: true,
    uploads: true,
    blobs: true,
    tasks: true,
    demoMedia: true,
    remoteFiles: true,
    sampleDemo: true,
  };
  expect(Object.keys(named)).toHaveLength(15);
});

test('a wiring that leaves out a port the operations reach does not compile', () => {
  const { demoMedia: _demoMedia, ...withoutDemoMedia } = every;
  // @ts-expect-error -- creating a product judges its demo video: the products function must supply demoMedia.
  const products: ProductsPorts = withoutDemoMedia;
  const { composer: _composer, ...withoutComposer } = every;
  // @ts-expect-error -- the render steps encode with the composer.
  const render: RenderPorts = withoutComposer;
  const { jobRunner: _jobRunner, ...withoutRunner } = every;
  // @ts-expect-error -- the sweeper starts jobs written but never started.
  const sweeper: SweeperPorts = withoutRunner;
  expect([products, render, sweeper]).toHaveLength(3);
});

test('every port built (the local stack, the tests) satisfies any handler', () => {
  const products: ProductsPorts = every;
  const render: RenderPorts = every;
  const sweeper: SweeperPorts = every;
  expect(products.products).toBe(every.products);
  expect(render.composer).toBe(every.composer);
  expect(sweeper.jobRunner).toBe(every.jobRunner);
});

test('a step reaching only part of a port (the render steps: the face box of a clip) is wired with that part alone', () => {
  const faces: RenderPorts['faces'] = { faceBoxInClip: async () => null };
  expect(Object.keys(faces)).toEqual(['faceBoxInClip']);
});
