/**
 * Builds the package with tsc alone (already the repository's compiler; no bundler to keep up): an ES
 * module tree in dist/esm and a CommonJS tree in dist/cjs, each with its own declarations, so that
 * `import` and `require` each get types of their own format (nodenext checks that). Plain JS so that
 * `npm pack` runs it with nothing but Node and tsc.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const [config, out] of [['tsconfig.esm.json', 'esm'], ['tsconfig.cjs.json', 'cjs']]) {
  execFileSync(process.execPath, [tsc, '-p', join(root, config)], { stdio: 'inherit' });
  // tsc never copies a .d.ts it did not write; the generated types are one.
  copyFileSync(join(root, 'src/schema.d.ts'), join(root, 'dist', out, 'schema.d.ts'));
}
// The package is "type": "module"; this marks the CommonJS tree as what it is.
writeFileSync(join(root, 'dist/cjs/package.json'), '{ "type": "commonjs" }\n');
