#!/usr/bin/env node
/**
 * `reaction-studio`: the user CLI over the typed client (usage: `reaction-studio help`; exit codes in
 * the client's README). In this repository, `npm run
 * reaction-studio -- ...` runs it from source.
 */
import { run } from './run.js';
import { pollIntervalMsOf, processEnvironment } from './environment.js';

const env = processEnvironment();
let intervalMs: number | undefined;
try {
  intervalMs = pollIntervalMsOf(env, 'RS_POLL_INTERVAL_MS');
} catch (error) {
  // As every usage error: exit 2 with the reason.
  process.stderr.write(`reaction-studio: ${(error as Error).message}\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
/** Ctrl-C ends `webhooks listen` cleanly (exit 0; a second one stops it at once); any other command keeps Node's own Ctrl-C. */
const interrupted = new AbortController();
const [group, verb] = argv.filter((arg) => arg !== '--json');
if (group === 'webhooks' && verb === 'listen') {
  process.once('SIGINT', () => {
    interrupted.abort();
    process.once('SIGINT', () => process.exit(130));
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

void run(
  argv,
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    errRaw: (text) => process.stderr.write(text),
    errIsTty: process.stderr.isTTY === true,
    readStdin,
  },
  env,
  { intervalMs, signal: interrupted.signal },
).then((code) => {
  process.exitCode = code;
});
