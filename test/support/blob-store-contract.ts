/**
 * What every BlobStore must do, run against the S3 store (on s3rver) and the in-memory double the unit
 * tests use, so the double answers as storage does: the same bytes back, the same failure for a
 * missing object (save-reaction turns a copy's `NoSuchKey` into a 409), the same links' lifetimes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAYBACK_URL_TTL_S, type BlobStore } from '#ports/blob-store';

const NOW = new Date('2026-03-01T10:00:00Z');
const WEEK_S = 7 * 24 * 60 * 60;
const after = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();

export interface BlobStoreContractOptions {
  /**
   * Reads a link as a browser would; given where the store's links are real (S3's presigned URLs),
   * so their bytes, content type and disposition are checked too. The double's links are opaque.
   */
  fetchLink?: (url: string, init?: RequestInit) => Promise<Response>;
}

/** `prefix`: every key the suite writes starts with it, so no other suite on the same bucket sees them. */
export function blobStoreContract(store: () => BlobStore, prefix: string, options: BlobStoreContractOptions = {}): void {
  let dir: string;
  let seq = 0;
  /** A folder of keys no other test uses. */
  const freshFolder = () => `${prefix}/t${++seq}/`;
  const fileOf = (name: string, data: Buffer | string) => {
    const path = join(dir, name);
    writeFileSync(path, data);
    return path;
  };
  const readBack = async (key: string) => {
    const path = join(dir, `back-${++seq}`);
    await store().getToFile(key, path);
    return readFileSync(path);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rs-blob-contract-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('the blob store', () => {
    test('a file put reads back byte for byte, with its size; a put on the same key replaces it', async () => {
      const key = `${freshFolder()}clip.mp4`;
      const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => i % 251));
      await store().putFile(key, fileOf('clip.mp4', bytes), 'video/mp4', { tags: { retention: 'days-30' } });
      expect(await readBack(key)).toEqual(bytes);
      expect(await store().sizeOf(key)).toBe(3000);
      await store().putFile(key, fileOf('short.mp4', 'short'), 'video/mp4');
      expect((await readBack(key)).toString()).toBe('short');
      expect(await store().sizeOf(key)).toBe(5);
    });

    test('a buffer put reads back byte for byte; an empty one is an object of size 0', async () => {
      const folder = freshFolder();
      await store().putBuffer(`${folder}poster.jpg`, Buffer.from('jpeg bytes'), 'image/jpeg');
      expect((await readBack(`${folder}poster.jpg`)).toString()).toBe('jpeg bytes');
      await store().putBuffer(`${folder}empty`, Buffer.alloc(0), 'application/octet-stream');
      expect(await store().sizeOf(`${folder}empty`)).toBe(0);
      expect(await readBack(`${folder}empty`)).toEqual(Buffer.alloc(0));
    });

    test('a missing object has no size, and reading it fails as NoSuchKey', async () => {
      const key = `${freshFolder()}missing.mp4`;
      expect(await store().sizeOf(key)).toBeUndefined();
      await expect(store().getToFile(key, join(dir, 'never'))).rejects.toMatchObject({ name: 'NoSuchKey' });
    });

    // A source key with a space: CopySource is URL-encoded. (Not a `+`: s3rver decodes the header with
    // decodeURI, which leaves %2B as it is, so it finds no such source where S3 would.)
    test('a copy holds the same bytes under the new key and leaves the source; copying a missing object fails as NoSuchKey', async () => {
      const folder = freshFolder();
      await store().putBuffer(`${folder}a b/clip 1.mp4`, Buffer.from('the clip'), 'video/mp4');
      await store().copy(`${folder}a b/clip 1.mp4`, `${folder}saved/clip.mp4`, { tags: { retention: 'days-365' } });
      expect((await readBack(`${folder}saved/clip.mp4`)).toString()).toBe('the clip');
      expect((await readBack(`${folder}a b/clip 1.mp4`)).toString()).toBe('the clip');
      await expect(store().copy(`${folder}gone.mp4`, `${folder}copy.mp4`)).rejects.toMatchObject({ name: 'NoSuchKey' });
      expect(await store().sizeOf(`${folder}copy.mp4`)).toBeUndefined();
    });

    test('lists every key under a prefix, in key order, and nothing outside it', async () => {
      const folder = freshFolder();
      for (const name of ['b.mp4', 'a.mp4', 'sub/c.jpg']) await store().putBuffer(`${folder}${name}`, Buffer.from(name), 'application/octet-stream');
      await store().putBuffer(`${folder.slice(0, -1)}-sibling/x`, Buffer.from('x'), 'application/octet-stream');
      expect(await store().listKeys(folder)).toEqual([`${folder}a.mp4`, `${folder}b.mp4`, `${folder}sub/c.jpg`]);
      expect(await store().listKeys(`${folder}sub/`)).toEqual([`${folder}sub/c.jpg`]);
      expect(await store().listKeys(`${folder}none/`)).toEqual([]);
    });

    test('deleteKeys removes the keys named, whether or not they exist, and no others', async () => {
      const folder = freshFolder();
      for (const name of ['a', 'b', 'c']) await store().putBuffer(`${folder}${name}`, Buffer.from(name), 'text/plain');
      await store().deleteKeys([`${folder}a`, `${folder}c`, `${folder}never`]);
      await store().deleteKeys([]);
      expect(await store().listKeys(folder)).toEqual([`${folder}b`]);
      expect(await store().sizeOf(`${folder}a`)).toBeUndefined();
    });

    test('deletePrefix removes everything under the prefix and nothing beside it; an empty prefix is no error', async () => {
      const folder = freshFolder();
      for (const name of ['jobs/1/a', 'jobs/1/b', 'jobs/10/a', 'jobs/2/a']) await store().putBuffer(`${folder}${name}`, Buffer.from(name), 'text/plain');
      await store().deletePrefix(`${folder}jobs/1/`);
      expect(await store().listKeys(folder)).toEqual([`${folder}jobs/10/a`, `${folder}jobs/2/a`]);
      await store().deletePrefix(`${folder}nothing/`);
      expect(await store().listKeys(folder)).toHaveLength(2);
    });

    test('a playback link lives a day by default, as long as asked within a week, and never past a week', async () => {
      const key = `${freshFolder()}video.mp4`;
      await store().putBuffer(key, Buffer.from('v'), 'video/mp4');
      expect((await store().playbackUrl(key, NOW)).expiresAt).toBe(after(PLAYBACK_URL_TTL_S));
      expect((await store().playbackUrl(key, NOW, 3 * 24 * 3600)).expiresAt).toBe(after(3 * 24 * 3600));
      expect((await store().playbackUrl(key, NOW, 30 * 24 * 3600)).expiresAt <= after(WEEK_S)).toBe(true);
      const download = await store().downloadUrl(key, 'video-1.mp4', NOW);
      expect(download.expiresAt).toBe(after(PLAYBACK_URL_TTL_S));
      expect(download.url).not.toBe((await store().playbackUrl(key, NOW)).url);
    });

    test('an upload form posts one file to the key, fixing its media type', async () => {
      const key = `${freshFolder()}upload`;
      const form = await store().uploadForm(key, { contentType: 'video/mp4', maxBytes: 1000, expiresInS: 600 });
      expect(form).toMatchObject({ method: 'POST', url: expect.any(String), fields: { key, 'Content-Type': 'video/mp4' } });
    });

    const fetchLink = options.fetchLink;
    if (fetchLink) {
      test('links read the object: playback as itself, download as an attachment under the name given', async () => {
        const key = `${freshFolder()}video.mp4`;
        await store().putBuffer(key, Buffer.from('moving pictures'), 'video/mp4');
        const played = await fetchLink((await store().playbackUrl(key)).url);
        expect({ status: played.status, type: played.headers.get('content-type'), body: await played.text() }).toEqual({
          status: 200,
          type: 'video/mp4',
          body: 'moving pictures',
        });
        const saved = await fetchLink((await store().downloadUrl(key, 'Lamp "demo".mp4')).url);
        expect(saved.status).toBe(200);
        expect(saved.headers.get('content-disposition')).toBe('attachment; filename="Lamp demo.mp4"');
        await saved.arrayBuffer();
      });

      test('a copy keeps the source content type', async () => {
        const folder = freshFolder();
        await store().putBuffer(`${folder}poster.jpg`, Buffer.from('jpeg'), 'image/jpeg');
        await store().copy(`${folder}poster.jpg`, `${folder}copy.jpg`);
        const read = await fetchLink((await store().playbackUrl(`${folder}copy.jpg`)).url);
        expect(read.headers.get('content-type')).toBe('image/jpeg');
        await read.arrayBuffer();
      });

      test('a file sent with the upload form is stored under its key', async () => {
        const key = `${freshFolder()}upload`;
        const form = await store().uploadForm(key, { contentType: 'video/mp4', maxBytes: 1000, expiresInS: 600 });
        if (form.method !== 'POST') throw new Error('the store answered a PUT form, not a POST one');
        const body = new FormData();
        for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
        body.append('file', new Blob([Buffer.from('uploaded')], { type: 'video/mp4' }), 'clip.mp4');
        const sent = await fetchLink(form.url, { method: 'POST', body });
        expect(sent.status).toBeLessThan(300);
        await sent.arrayBuffer();
        expect(await store().sizeOf(key)).toBe(8);
      });
    }
  });
}
