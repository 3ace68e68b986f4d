/**
 * Test output stays quiet: the service's structured logs are off unless LOG_LEVEL asks for them
 * (`LOG_LEVEL=INFO npm test -- test/e2e/video-jobs.test.ts` to read them while chasing a failure),
 * and CDK's "Bundling asset ..." note for every function a template test bundles is dropped.
 */
process.env.LOG_LEVEL ??= 'SILENT';

const write = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
  typeof chunk === 'string' && chunk.startsWith('Bundling asset ') ? true : write(chunk, ...rest)) as typeof process.stderr.write;
