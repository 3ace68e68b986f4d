/**
 * Writes clients/mcp/src/answer-schemas.ts from docs/openapi.json (answer-schemas.ts says what it
 * holds). Run from the repository root by `npm run client:generate`; `--stdout` prints instead.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { answerSchemasModule } from './answer-schemas.js';

async function main(): Promise<void> {
  const text = answerSchemasModule(JSON.parse(await readFile(resolve('docs/openapi.json'), 'utf8')));
  if (process.argv.includes('--stdout')) process.stdout.write(text);
  else await writeFile(resolve('clients/mcp/src/answer-schemas.ts'), text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
