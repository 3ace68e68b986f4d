#!/usr/bin/env -S npx tsx
/**
 * `reaction-studio`: the user CLI over the typed client (usage: `reaction-studio help`; exit codes in
 * the client's README). Run it with `npx tsx clients/typescript/src/cli/main.ts ...`.
 */
import { run } from './run';

const intervalMs = Number(process.env.RS_POLL_INTERVAL_MS) || undefined;

void run(
  process.argv.slice(2),
  {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    errRaw: (text) => process.stderr.write(text),
    errIsTty: process.stderr.isTTY === true,
  },
  process.env,
  { intervalMs },
).then((code) => {
  process.exitCode = code;
});
