/** What the job benchmarks do on a local stack before timing anything: an API client and a product with a demo. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type ApiCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** Calls the stack's API with `key`: JSON bodies, or FormData as multipart. */
export function apiClient(apiUrl: string, key: string): ApiCall {
  return async (method, path, body) => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${key}` } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${apiUrl}${path}`, init);
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
}

/**
 * A product with a `demoS` s vertical demo with sound, uploaded and normalised (the background task
 * waited for), so nothing timed later pays for it. Returns its id and how the demo came out.
 */
export async function productWithDemo(
  call: ApiCall,
  tasksIdle: () => Promise<void>,
  dir: string,
  demoS: number,
): Promise<{ productId: number; demo: { width: number; height: number; duration_s: number }; uploadS: number }> {
  const { fileArg, runFfmpeg } = await import('#render');
  const demoPath = join(dir, 'demo.mp4');
  await runFfmpeg([
    '-v', 'error',
    '-f', 'lavfi', '-i', `testsrc2=s=720x1280:r=30:d=${demoS}`,
    '-f', 'lavfi', '-i', `sine=f=440:r=48000:d=${demoS}`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', '-y', fileArg(demoPath),
  ], { timeoutMs: 5 * 60_000 });
  const form = new FormData();
  form.append('name', 'Glow serum');
  form.append('demo_video', new Blob([await readFile(demoPath)]), 'demo.mp4');
  const t0 = performance.now();
  const created = await call('POST', '/products', form);
  if (created.status !== 201) throw new Error(`POST /products answered ${created.status}: ${JSON.stringify(created.body)}`);
  const productId = created.body.data.id as number;
  await tasksIdle();
  const product = await call('GET', `/products/${productId}`);
  const demo = product.body.data.demo_video;
  if (demo?.status !== 'ready') throw new Error(`the demo was not normalised: ${JSON.stringify(demo)}`);
  return { productId, demo, uploadS: (performance.now() - t0) / 1000 };
}
