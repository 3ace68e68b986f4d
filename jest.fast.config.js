/**
 * `npm run test:fast`: the edit loop's tier. Unit suites (use cases over in-memory ports, adapters
 * against doubles), the provider contract suites and the CDK template suites: no local stack, no
 * DynamoDB Local or s3rver, no video render, no browser. `npm test` runs these and everything else.
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  // What the fast suites need of the global setup: the studio's build and the app's synthesis.
  globalSetup: '<rootDir>/test/support/global/fast-setup.ts',
  globalTeardown: undefined,
  testPathIgnorePatterns: [
    '/node_modules/',
    // Through the local HTTP server, the CLI's and clients' end-to-end runs, the studio in Chromium.
    '<rootDir>/test/e2e/',
    '-e2e\\.test\\.ts$',
    // DynamoDB Local, s3rver and whole local stacks.
    '<rootDir>/test/functions/adapters/dynamodb/',
    '<rootDir>/test/functions/adapters/aws-clients\\.test\\.ts$',
    // The restore runbook against DynamoDB Local; the blob store contract and object tags against s3rver.
    '<rootDir>/test/lib/admin/table-restore\\.test\\.ts$',
    '<rootDir>/test/functions/adapters/s3/blob-store(-tags)?\\.test\\.ts$',
    // The bench's section stack (a whole local stack on the shared services).
    '<rootDir>/test/bench/local-stack\\.test\\.ts$',
    '<rootDir>/test/functions/adapters/engines/(fal|local)/engine\\.test\\.ts$',
    '<rootDir>/test/lib/local/(runtime|loopback-only|data-dir|sandboxes|provision|s3rver-atomic)\\.test\\.ts$',
    '<rootDir>/test/lib/cloud/lambda-layout\\.test\\.ts$',
    // Video: ffmpeg encodes, rendered reactions, the face model (the demo framing's graphs are read, not run).
    '<rootDir>/test/functions/render/((ffmpeg|uploads|caption|compose|face)/|encoding/(?!(demo-framing|canonical-encoding)\\.test\\.ts$))',
    '<rootDir>/test/functions/render/voice/voice-line\\.test\\.ts$',
    '<rootDir>/test/functions/render/(reaction/(reaction-clip|opening)|illustrated/illustrated-renderer)\\.test\\.ts$',
    '<rootDir>/test/functions/adapters/engines/local/(motion-end-to-end|photo-rig|reaction-liveliness)\\.test\\.ts$',
    // The fal engine's voice line: its speech and lip-synced clip are real encodes.
    '<rootDir>/test/functions/adapters/engines/fal/voice\\.test\\.ts$',
    // Sound: levelled encodes and mixes (the mix graph, the loudness reader and the synthesis stay).
    '<rootDir>/test/functions/render/sound/(finished-video-sound|synth)\\.test\\.ts$',
  ],
};
