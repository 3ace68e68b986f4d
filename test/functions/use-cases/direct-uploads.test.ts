/**
 * Direct uploads from POST /uploads to their use: what a form promises, and that an upload is used
 * once, by its own account, for its own purpose, with nothing left behind when it is refused.
 */
import { AppError } from '#domain/errors';
import type { BackgroundTask } from '#ports/background-tasks';
import type { DemoMedia } from '#ports/demo-media';
import { createUpload } from '#use-cases/create-upload';
import { createProduct } from '#use-cases/create-product';
import { MemoryBlobStore } from '#test-doubles/memory/blob-store';
import { MemoryProductStore } from '#test-doubles/memory/product-store';
import { MemoryUploadStore } from '#test-doubles/memory/upload-store';
import { testDependencies } from '#test-support/wiring';
import { RemoteFileError, type RemoteFiles } from '#ports/remote-files';
import { writeFile } from 'node:fs/promises';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const HOUR = 60 * 60 * 1000;

function setup(options: { media?: Partial<DemoMedia>; remoteFiles?: RemoteFiles } = {}) {
  let now = NOW;
  const blobs = new MemoryBlobStore();
  const uploads = new MemoryUploadStore();
  const products = new MemoryProductStore();
  const dispatched: BackgroundTask[] = [];
  const demoMedia: DemoMedia = {
    inspect: async () => ({ contentType: 'video/mp4', width: 720, height: 1280, durationS: 8 }),
    normalise: async () => {
      throw new Error('not in a create');
    },
    ...options.media,
  };
  const remoteFiles = options.remoteFiles ?? { download: async () => Promise.reject(new Error('no link expected')) };
  const deps = testDependencies({ blobs, uploads, products, demoMedia, remoteFiles, tasks: { dispatch: async (task) => void dispatched.push(task) }, now: () => now });
  const later = (ms: number) => {
    now = new Date(NOW.getTime() + ms);
  };
  return { deps, blobs, uploads, products, dispatched, later };
}

/** An upload of `bytes` made and sent, as a client would. */
async function uploaded(s: ReturnType<typeof setup>, accountId: number, bytes: number, declared = bytes) {
  const { upload } = await createUpload(s.deps, accountId, { purpose: 'demo_video', content_type: 'video/mp4', size_bytes: declared });
  await s.blobs.putBuffer(upload.key, Buffer.alloc(bytes, 1), 'video/mp4');
  return upload;
}

describe('POST /uploads', () => {
  test('a form for the account prefix, fixed to the declared type and size, for an hour', async () => {
    const s = setup();
    const { upload, form } = await createUpload(s.deps, 7, { purpose: 'demo_video', content_type: 'video/mp4', size_bytes: 1234, filename: 'demo.mp4' });
    expect(upload).toMatchObject({ account_id: 7, purpose: 'demo_video', status: 'pending', key: `uploads/7/${upload.id}`, expires_at: new Date(NOW.getTime() + HOUR).toISOString() });
    expect(form).toMatchObject({ method: 'POST', fields: { key: upload.key, 'Content-Type': 'video/mp4' } });
    expect(s.blobs.forms.get(upload.key)).toEqual({ contentType: 'video/mp4', maxBytes: 1234, expiresInS: 3600 });
    expect(await s.uploads.get(7, upload.id)).toEqual(upload);
  });

  test.each([
    ['a type the purpose does not take', { purpose: 'avatar_image', content_type: 'video/mp4', size_bytes: 10 }, 'unsupported_media_type'],
    ['a size past the purpose cap', { purpose: 'avatar_image', content_type: 'image/png', size_bytes: 10 * 1024 * 1024 + 1 }, 'payload_too_large'],
  ] as const)('%s is refused and records nothing', async (_label, input, code) => {
    const s = setup();
    await expect(createUpload(s.deps, 7, input)).rejects.toMatchObject({ code });
    expect(s.blobs.forms.size).toBe(0);
  });
});

describe('using an upload (POST /products with demo_video_upload_id)', () => {
  test('the file is judged and stored as a multipart one would be; the upload is used and its object gone', async () => {
    const s = setup();
    const upload = await uploaded(s, 7, 100);
    const product = await createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { uploadId: upload.id } });
    expect(s.blobs.objects.get(product.demo!.original_key)?.data.length).toBe(100);
    expect(s.blobs.objects.has(upload.key)).toBe(false);
    expect(await s.uploads.get(7, upload.id)).toMatchObject({ status: 'used' });
    expect(s.dispatched).toHaveLength(1);
  });

  test('two requests with one upload: exactly one makes a product, the other is 409', async () => {
    const s = setup();
    const upload = await uploaded(s, 7, 100);
    const outcomes = await Promise.allSettled([1, 2].map(() => createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { uploadId: upload.id } })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'conflict', status: 409 });
    expect(s.products.products.size).toBe(1);
  });

  test.each([
    ['unknown', async () => ({ accountId: 7, uploadId: '00000000-0000-4000-8000-000000000000' }), 'not_found'],
    ['of another account', async (s: ReturnType<typeof setup>) => ({ accountId: 8, uploadId: (await uploaded(s, 7, 100)).id }), 'not_found'],
    [
      'expired',
      async (s: ReturnType<typeof setup>) => {
        const upload = await uploaded(s, 7, 100);
        s.later(HOUR);
        return { accountId: 7, uploadId: upload.id };
      },
      'not_found',
    ],
    [
      'used',
      async (s: ReturnType<typeof setup>) => {
        const upload = await uploaded(s, 7, 100);
        await createProduct(s.deps, { accountId: 7, name: 'First', demo: { uploadId: upload.id } });
        return { accountId: 7, uploadId: upload.id };
      },
      'conflict',
    ],
    [
      'of another purpose',
      async (s: ReturnType<typeof setup>) => {
        const { upload } = await createUpload(s.deps, 7, { purpose: 'avatar_image', content_type: 'image/png', size_bytes: 10 });
        await s.blobs.putBuffer(upload.key, Buffer.alloc(10), 'image/png');
        return { accountId: 7, uploadId: upload.id };
      },
      'bad_request',
    ],
    ['never sent', async (s: ReturnType<typeof setup>) => ({ accountId: 7, uploadId: (await createUpload(s.deps, 7, { purpose: 'demo_video', content_type: 'video/mp4', size_bytes: 10 })).upload.id }), 'conflict'],
  ] as const)('an upload %s is refused and makes nothing', async (_label, arrange, code) => {
    const s = setup();
    const { accountId, uploadId } = await arrange(s);
    const before = s.products.products.size;
    await expect(createProduct(s.deps, { accountId, name: 'Lamp', demo: { uploadId } })).rejects.toMatchObject({ code });
    expect(s.products.products.size).toBe(before);
    expect(await s.blobs.listKeys('accounts/')).toHaveLength(before);
  });

  test('an object larger than declared is 413: the object goes and the upload stays unused', async () => {
    const s = setup();
    const upload = await uploaded(s, 7, 101, 100);
    await expect(createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { uploadId: upload.id } })).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(s.blobs.objects.size).toBe(0);
    expect(s.products.products.size).toBe(0);
    expect(await s.uploads.get(7, upload.id)).toMatchObject({ status: 'pending' });
  });

  test('a file the media checks refuse is deleted, and the upload given back', async () => {
    const refusal = new AppError('unsupported_media_type', 'demo_video is not a video');
    const s = setup({ media: { inspect: async () => Promise.reject(refusal) } });
    const upload = await uploaded(s, 7, 100);
    await expect(createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { uploadId: upload.id } })).rejects.toBe(refusal);
    expect(s.blobs.objects.size).toBe(0);
    expect(s.products.products.size).toBe(0);
    expect(await s.uploads.get(7, upload.id)).toMatchObject({ status: 'pending' });
  });

  test('a landscape file sent without a reframe keeps its upload: sent again with one, the same upload is taken', async () => {
    const s = setup({ media: { inspect: async () => ({ contentType: 'video/webm', width: 1280, height: 720, durationS: 4 }) } });
    const upload = await uploaded(s, 7, 100);
    await expect(createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { uploadId: upload.id } })).rejects.toMatchObject({ status: 422, param: 'reframe' });
    expect([...s.blobs.objects.keys()]).toEqual([upload.key]);
    expect(await s.uploads.get(7, upload.id)).toMatchObject({ status: 'pending' });

    const intake = { reframe: 'blur' as const, start_s: null, end_s: null };
    const product = await createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { uploadId: upload.id }, intake });
    expect(product.demo_intake).toEqual(intake);
    expect(await s.uploads.get(7, upload.id)).toMatchObject({ status: 'used' });
  });

  test('when the product cannot be recorded the upload is given back with its file, for a retry', async () => {
    const s = setup();
    const upload = await uploaded(s, 7, 100);
    s.products.create = async () => Promise.reject(new Error('table down'));
    await expect(createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { uploadId: upload.id } })).rejects.toThrow('table down');
    expect([...s.blobs.objects.keys()]).toEqual([upload.key]);
    expect(await s.uploads.get(7, upload.id)).toMatchObject({ status: 'pending' });
  });
});

describe('a linked file (POST /products with demo_video_url)', () => {
  test('is fetched within the purpose cap and judged and stored as an upload would be', async () => {
    const asked: unknown[] = [];
    const s = setup({
      remoteFiles: {
        download: async (url, options) => {
          asked.push({ url, maxBytes: options.maxBytes });
          await writeFile(options.destinationPath, Buffer.alloc(64, 2));
          return { path: options.destinationPath, sizeBytes: 64, finalUrl: url };
        },
      },
    });
    const product = await createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { url: 'https://files.example.com/demo.mp4' } });
    expect(asked).toEqual([{ url: 'https://files.example.com/demo.mp4', maxBytes: 50 * 1024 * 1024 }]);
    expect(s.blobs.objects.get(product.demo!.original_key)?.data.length).toBe(64);
  });

  test.each([
    ['refused', 400, 'bad_request'],
    ['too_large', 413, 'payload_too_large'],
    ['unavailable', 503, 'upstream_unavailable'],
  ] as const)('a %s link is %d and makes nothing', async (reason, status, code) => {
    const s = setup({ remoteFiles: { download: async () => Promise.reject(new RemoteFileError(reason, 'The link redirected to a private address')) } });
    const refused = createProduct(s.deps, { accountId: 7, name: 'Lamp', demo: { url: 'https://files.example.com/demo.mp4' } });
    await expect(refused).rejects.toMatchObject({ status, code, message: expect.stringMatching(/^demo_video_url: /) });
    expect(s.products.products.size).toBe(0);
    expect(s.blobs.objects.size).toBe(0);
  });
});
