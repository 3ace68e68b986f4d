/**
 * The client's committed types (clients/typescript/src/schema.d.ts) are what openapi-typescript
 * makes of docs/openapi.json today. The generator runs in a child process (openapi-typescript is an
 * ES module jest cannot load) and prints instead of writing; a difference means someone changed
 * the API and forgot `npm run client:generate`.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

test('src/schema.d.ts matches the types generated from docs/openapi.json', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'clients/typescript/scripts/generate.ts', '--stdout'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const committed = await readFile('clients/typescript/src/schema.d.ts', 'utf8');
  // Compared as text, but only a yes/no goes in the message: a full diff of 6,000 lines helps nobody.
  if (stdout !== committed) throw new Error('clients/typescript/src/schema.d.ts is stale: run `npm run client:generate` and commit the result');
}, 60_000);
