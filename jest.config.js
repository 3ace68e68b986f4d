/**
 * Tests are TypeScript transformed by swc. The global setup starts one DynamoDB Local and one s3rver
 * for the run (suites keep apart by table and bucket) and builds the studio once. Some packages ship only ES modules (@middy/core, DiceBear,
 * p-retry, p-limit, p-wait-for, get-port, file-type and what they import, cookie), so swc turns them into CommonJS for jest like
 * our own sources.
 */
const esmOnly = [
  '@middy',
  '@dicebear',
  'p-retry',
  'is-network-error',
  'p-limit',
  'yocto-queue',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  '@borewit',
  'uint8array-extras',
  'cookie',
  'get-port',
  'p-wait-for',
].join('|');
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/support/quiet-logs.ts'],
  globalSetup: '<rootDir>/test/support/global/setup.ts',
  globalTeardown: '<rootDir>/test/support/global/teardown.ts',
  transform: { '^.+\\.ts$': swc, [`^.+/node_modules/(${esmOnly})/.+\\.js$`]: swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly})/)`],
  moduleNameMapper: {
    // The clients' sources import each other with the extension Node needs (`./client.js`): the file is `.ts`.
    '^(\\.{1,2}/.+)\\.js$': '$1',
    // As in tsconfig.json's paths: the repository tests the clients from source, not their build.
    '^@reaction-studio/client$': '<rootDir>/clients/typescript/src/index.ts',
    '^@reaction-studio/client/node$': '<rootDir>/clients/typescript/src/node.ts',
  },
  testTimeout: 60000,
  testSequencer: '<rootDir>/test/support/heavy-first-sequencer.js',
  // Four workers on two cores: a good part of an end-to-end suite is waiting (on a provider's
  // retry, a child process, a poll). With three, about a quarter of the cores' time
  // was idle; with four, 5 s of 728 (docs/testing.md, Order and workers).
  maxWorkers: 4,
};
