/**
 * A TypeScript entry bundled once for a suite that runs it as a child process many times: `node
 * <bundle>` starts in a fraction of the CPU time of tsx, which transpiles the whole program again at
 * every start. The bundle is made from the sources at test time (the repository's tsconfig paths and
 * package.json imports, as tsx resolves them); packages stay in node_modules, reached through a link
 * beside the bundle.
 */
import { existsSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';

const ROOT = resolve(__dirname, '..', '..');

/** `__dirname` and `__filename` keep naming the source file (the DynamoDB launcher reads a file beside its own). */
const sourceLocation: Plugin = {
  name: 'source-location',
  setup(bundle) {
    bundle.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      if (!/\b__(dirname|filename)\b/.test(source)) return undefined;
      return { contents: `const __dirname = ${JSON.stringify(dirname(path))}, __filename = ${JSON.stringify(path)};\n${source}`, loader: 'ts' };
    });
  },
};

/**
 * Bundles `entry` (a path from the repository root) into `outDir` and returns the bundle's path.
 * `format` is the module system the entry runs under today: esm under a `"type": "module"` package.
 */
export async function bundledEntry(entry: string, outDir: string, format: 'esm' | 'cjs'): Promise<string> {
  const outfile = join(outDir, `${basename(entry, '.ts')}.${format === 'esm' ? 'mjs' : 'cjs'}`);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    packages: 'external',
    tsconfig: join(ROOT, 'tsconfig.json'),
    plugins: [sourceLocation],
    logLevel: 'warning',
  });
  const modules = join(outDir, 'node_modules');
  if (!existsSync(modules)) symlinkSync(join(ROOT, 'node_modules'), modules);
  return outfile;
}
