/**
 * The client as a consumer gets it: `npm pack` (its prepack builds it), the tarball installed into an
 * empty project, and the README's two examples (ES module and CommonJS, taken from the README as
 * written) run by plain Node against a small server that answers as the API does. The same project
 * then type-checks a TypeScript consumer under `nodenext` and under `bundler`, with the per-method
 * rules of POST /videos refused at compile time.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startFakeApi, type FakeApi } from './fake-api-server';

const exec = promisify(execFile);
const ROOT = resolve(__dirname, '../../..');
const CLIENT = join(ROOT, 'clients/typescript');
const TSC = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');

let scratch: string;
let api: FakeApi;

/** The code block that follows `<!-- example: NAME -->` in the client's README. */
async function readmeExample(name: string): Promise<string> {
  const readme = await readFile(join(CLIENT, 'README.md'), 'utf8');
  const match = new RegExp(`<!-- example: ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`no "example: ${name}" block in clients/typescript/README.md`);
  return match[1]!;
}

const runNode = (file: string, baseUrl: string) =>
  exec(process.execPath, [file], { cwd: scratch, env: { PATH: process.env.PATH, RS_API_KEY: 'rsk_test', RS_BASE_URL: baseUrl } });

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'rs-client-pack-'));
  const packed = await exec('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: CLIENT, maxBuffer: 16 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as [{ filename: string }];
  await writeFile(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  // From npm's cache when it holds the dependencies (it does after the repository's own install).
  await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(scratch, filename)], { cwd: scratch });
  await writeFile(join(scratch, 'demo.mp4'), 'not really a video: the fake API stores nothing');
  api = await startFakeApi();
}, 180_000);

afterAll(async () => {
  await api?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('installs with at most 10 packages, itself included', async () => {
  const lock = JSON.parse(await readFile(join(scratch, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  const installed = Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/'));
  expect(installed).toContain('node_modules/@reaction-studio/client');
  expect(installed.length).toBeLessThanOrEqual(10);
});

test.each(['esm', 'cjs'])("the README's %s example makes a video from start to finish on plain Node", async (format) => {
  const file = `example.${format === 'esm' ? 'mjs' : 'cjs'}`;
  await writeFile(join(scratch, file), await readmeExample(format));
  const { stdout } = await runNode(file, api.baseUrl);
  expect(stdout.trim().split('\n')).toEqual(['generating_reaction 40%', 'done 100%', `${api.origin}/media/9.mp4`]);
  const video = api.requests.find((request) => request.path === '/api/v1/videos' && request.method === 'POST');
  expect(video).toMatchObject({ authorization: 'Bearer rsk_test', idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  expect(api.requests.find((request) => request.path === '/api/v1/products')?.contentType).toMatch(/^multipart\/form-data/);
});

test('a baseUrl without /api/v1 fails naming that, not with a JSON parse error', async () => {
  await writeFile(join(scratch, 'example.mjs'), await readmeExample('esm'));
  const failed = await runNode('example.mjs', api.origin).catch((error: { stderr: string }) => error);
  expect(failed.stderr).toContain(`got HTML (text/html; charset=utf-8) from POST /products, status 200: is baseUrl missing /api/v1? (it is ${api.origin})`);
  expect(failed.stderr).not.toContain('Unexpected token');
});

const CONSUMER = `
import { createClient, ApiError, UnexpectedResponseError, type Job } from '@reaction-studio/client';
import { fileFromPath } from '@reaction-studio/client/node';

export async function make(): Promise<Job> {
  const rs = createClient({ baseUrl: 'http://127.0.0.1:3000/api/v1', apiKey: 'rsk_...' });
  const product = await rs.createProduct({ name: 'Glow Serum', demoVideo: await fileFromPath('demo.mp4') });
  const job = await rs.createVideoJob({ product_id: product.id, method: 'prompt', prompt: 'shocked' });
  await rs.createVideoJob({ product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link', reference_url: 'https://www.tiktok.com/@a/video/1' });
  await rs.createVideoJob({ product_id: 1, method: 'motion', avatar_id: 2, referenceVideo: new Blob([]) });
  await rs.createVideoJob({ product_id: 1, method: 'reuse', reaction_id: 3, hook_text: 'Wait for it' });
  // @ts-expect-error prompt needs its prompt
  await rs.createVideoJob({ product_id: 'x', method: 'prompt' });
  // @ts-expect-error motion needs avatar_id and a reference
  await rs.createVideoJob({ product_id: 1, method: 'motion', video_source: 'link' });
  // @ts-expect-error a link needs its reference_url
  await rs.createVideoJob({ product_id: 1, method: 'motion', avatar_id: 2, video_source: 'link' });
  // @ts-expect-error reuse needs reaction_id
  await rs.createVideoJob({ product_id: 1, method: 'reuse' });
  // @ts-expect-error a saved reaction is replayed as it is: no voice line
  await rs.createVideoJob({ product_id: 1, method: 'reuse', reaction_id: 3, voice_line: 'hi' });
  // @ts-expect-error another method's field
  await rs.createVideoJob({ product_id: 1, method: 'prompt', prompt: 'shocked', reaction_id: 3 });
  const errors: unknown[] = [new ApiError({ status: 404, code: 'not_found', message: '', requestId: null, retryAfterS: null, body: null }), UnexpectedResponseError];
  return errors.length ? job : job;
}
`;

const tsconfig = (module: string, moduleResolution: string) => ({
  // No @types/node: the declarations need only the web globals (fetch, Blob), as in a browser project.
  // skipDefaultLibCheck: TypeScript's own lib files (ES2023, DOM) are not the package's to check; the
  // package's declarations still are (about 2 of each check's 5-7 CPU-s went to the lib files).
  compilerOptions: { module, moduleResolution, target: 'ES2022', lib: ['ES2023', 'DOM'], types: [], strict: true, noEmit: true, skipDefaultLibCheck: true },
});

test.each([
  ['nodenext', 'nodenext', ['consumer.mts', 'consumer.cts']],
  ['bundler', 'preserve', ['consumer.ts']],
])('a TypeScript consumer type-checks under moduleResolution %s', async (moduleResolution, module, files) => {
  const dir = join(scratch, moduleResolution);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig(module, moduleResolution), files }));
  for (const file of files) await writeFile(join(dir, file), CONSUMER);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await symlink(join(scratch, 'node_modules'), join(dir, 'node_modules'));
  const checked = await exec(process.execPath, [TSC, '-p', dir]).catch((error: { stdout: string }) => error);
  expect(checked.stdout).toBe('');
});
