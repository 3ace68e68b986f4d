/**
 * Tests are TypeScript transformed by swc. Integration and end-to-end suites start their own
 * DynamoDB Local and s3rver on free ports. @middy/core ships only ES modules, so swc turns it into
 * CommonJS for jest like our own sources.
 */
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': swc, '^.+/node_modules/@middy/.+\\.js$': swc },
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  testTimeout: 60000,
  maxWorkers: 2,
};
