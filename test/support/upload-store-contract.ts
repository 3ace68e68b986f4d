/**
 * What every UploadStore must do, run against the DynamoDB store and the in-memory double the unit
 * tests use, so the double keeps the same conditions.
 */
import { randomUUID } from 'node:crypto';
import { UPLOAD_TTL_S, uploadObjectKey, type Upload } from '#domain/upload-record';
import type { UploadStore } from '#ports/upload-store';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const later = (s: number) => new Date(NOW.getTime() + s * 1000);

function newUpload(accountId: number, fields: Partial<Upload> = {}): Upload {
  const id = randomUUID();
  return {
    id,
    account_id: accountId,
    purpose: 'demo_video',
    content_type: 'video/mp4',
    size_bytes: 1000,
    filename: 'demo.mp4',
    key: uploadObjectKey(accountId, id),
    status: 'pending',
    created_at: NOW.toISOString(),
    expires_at: later(UPLOAD_TTL_S).toISOString(),
    ...fields,
  };
}

export function uploadStoreContract(store: () => UploadStore): void {
  describe('the upload store', () => {
    test('an upload is read back within its account and not found from another', async () => {
      const upload = newUpload(501);
      await store().create(upload);
      expect(await store().get(501, upload.id)).toEqual(upload);
      expect(await store().get(502, upload.id)).toBeUndefined();
      expect(await store().get(501, randomUUID())).toBeUndefined();
    });

    test('of concurrent claims of one upload exactly one gets it, and it is used from then on', async () => {
      const upload = newUpload(503);
      await store().create(upload);
      const claims = await Promise.all(Array.from({ length: 8 }, () => store().claim(503, upload.id, 'demo_video', later(60))));
      const won = claims.filter((c) => c !== undefined);
      expect(won).toHaveLength(1);
      expect(won[0]).toMatchObject({ id: upload.id, status: 'used', used_at: later(60).toISOString() });
      expect(await store().get(503, upload.id)).toMatchObject({ status: 'used' });
      expect(await store().claim(503, upload.id, 'demo_video', later(61))).toBeUndefined();
    });

    test('an expired upload, one of another purpose or another account cannot be claimed', async () => {
      const upload = newUpload(504);
      await store().create(upload);
      expect(await store().claim(504, upload.id, 'demo_video', later(UPLOAD_TTL_S))).toBeUndefined();
      expect(await store().claim(504, upload.id, 'avatar_image', later(60))).toBeUndefined();
      expect(await store().claim(505, upload.id, 'demo_video', later(60))).toBeUndefined();
      expect(await store().get(504, upload.id)).toMatchObject({ status: 'pending' });
    });

    test('a released upload can be claimed again; releasing an unknown one changes nothing', async () => {
      const upload = newUpload(506);
      await store().create(upload);
      expect(await store().claim(506, upload.id, 'demo_video', later(60))).toBeDefined();
      await store().release(506, upload.id);
      expect(await store().get(506, upload.id)).toEqual(upload);
      expect(await store().claim(506, upload.id, 'demo_video', later(120))).toBeDefined();
      await store().release(506, randomUUID());
      expect(await store().get(506, randomUUID())).toBeUndefined();
    });
  });
}
