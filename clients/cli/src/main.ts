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

void run(
  process.argv.slice(2),
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    errRaw: (text) => process.stderr.write(text),
    errIsTty: process.stderr.isTTY === true,
  },
  env,
  { intervalMs },
).then((code) => {
  process.exitCode = code;
});
