/**
 * Tests are TypeScript transformed by swc. Integration and end-to-end suites start their own
 * DynamoDB Local and s3rver on free ports. @middy/core and DiceBear ship only ES modules, so swc turns
 * them into CommonJS for jest like our own sources.
 */
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/support/quiet-logs.ts'],
  transform: { '^.+\\.ts$': swc, '^.+/node_modules/(@middy|@dicebear)/.+\\.js$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(@middy|@dicebear)/)'],
  testTimeout: 60000,
  maxWorkers: 2,
};
