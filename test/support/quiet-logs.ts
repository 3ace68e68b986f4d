/**
 * Test output stays quiet: the service's structured logs are off unless LOG_LEVEL asks for them
 * (`LOG_LEVEL=INFO npm test -- test/e2e/video-jobs.test.ts` to read them while chasing a failure).
 */
process.env.LOG_LEVEL ??= 'SILENT';
