/**
 * The client's committed types (clients/typescript/src/schema.d.ts) are what openapi-typescript
 * makes of the API's document as the code describes it now (the route table and the zod schemas,
 * built in memory, not the copy in docs/openapi.json, which can lag the same way). The generator
 * runs in a child process (openapi-typescript is an ES module jest cannot load), reading the
 * document from stdin and printing instead of writing. A difference means the API changed without
 * `npm run openapi && npm run client:generate`.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { openApiText } from '#functions/openapi/file';

function generate(document: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'clients/typescript/scripts/generate.ts', '-', '--stdout'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`generate.ts exited ${code}: ${Buffer.concat(err).toString('utf8')}`)),
    );
    child.stdin.end(document);
  });
}

test('src/schema.d.ts matches the types generated from the API description', async () => {
  const [generated, committed] = await Promise.all([generate(openApiText()), readFile('clients/typescript/src/schema.d.ts', 'utf8')]);
  // Only a yes/no goes in the message: a diff of 6,000 generated lines helps nobody.
  if (generated !== committed) throw new Error('clients/typescript/src/schema.d.ts is stale: run `npm run openapi && npm run client:generate` and commit both');
}, 60_000);
