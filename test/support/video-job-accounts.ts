/**
 * What the video-job suites (rendering, and the rules around jobs) do with their stack's accounts:
 * a fresh account with a product, a ready avatar, the allowance read back, the stored objects.
 */
import type { ApiClient, TestStack } from './local-stack';
import { getWithRetry } from './jobs';

/** A job renders a 3-5 s reaction (and maybe a preview and a composition) on 2 shared cores. */
export const JOB_TEST_MS = 300_000;

/** The reference-clip CDN host the link tests name (on the allow-list). */
export const CDN = 'v16m.tiktokcdn.com';

export function videoJobAccounts(stack: () => TestStack) {
  /** A fresh account (its own allowance and rate window) with a product without demo. */
  async function freshAccount(plan: 'free' | 'starter' | 'pro' | 'business' = 'pro') {
    const account = await stack().newAccount({ plan });
    const res = await account.api.post('/products', { name: 'Plain product', description: 'no demo' });
    expect(res.status).toBe(201);
    return { ...account, product: res.body.data };
  }

  async function readyAvatar(api: ApiClient, prompt = 'a woman with curly hair and glasses'): Promise<any> {
    const res = await api.post('/avatars', { prompt });
    expect([201, 202]).toContain(res.status);
    for (let i = 0; i < 120; i++) {
      await stack().stack.tasks.idle();
      const avatar = (await api.get(`/avatars/${res.body.data.id}`)).body.data;
      if (avatar.status === 'ready') return avatar;
      if (avatar.status === 'failed') throw new Error(`avatar failed: ${JSON.stringify(avatar)}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error('avatar not ready');
  }

  async function usage(api: ApiClient) {
    const res = await getWithRetry(api, '/usage');
    expect(res.status).toBe(200);
    return res.body.data.allowance as { limit: number; used: number; reserved: number; remaining: number };
  }

  /** The stack's stored objects under `prefix`. */
  const listKeys = (prefix: string) => stack().stack.dependencies.blobs.listKeys(prefix);

  return { freshAccount, readyAvatar, usage, listKeys };
}
