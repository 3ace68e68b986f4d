/**
 * Test output stays quiet: the service's structured logs are not printed unless LOG_LEVEL asks for
 * them (`LOG_LEVEL=INFO npm test -- test/e2e/video-jobs.test.ts` to read them while chasing a failure).
 * Without it their warnings and errors are held (test/support/held-logs.ts), for a failing wait to
 * show. CDK's "Bundling asset ..." note for every function a template test bundles is dropped.
 */
import { heldLine, holdServiceLogs } from './held-logs';

if (process.env.LOG_LEVEL === undefined) {
  process.env.LOG_LEVEL = 'WARN';
  holdServiceLogs();
}

const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => heldLine(chunk) || writeOut(chunk, ...rest)) as typeof process.stdout.write;
const writeErr = process.stderr.write.bind(process.stderr);
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
  heldLine(chunk) || (typeof chunk === 'string' && chunk.startsWith('Bundling asset ')) || writeErr(chunk, ...rest)) as typeof process.stderr.write;
