/** The local engine's portrait from a prompt, as the avatars API function uses it: drawn, stored, described. */
import sharp from 'sharp';
import { AVATAR_SIZE, createLocalAvatarEngine } from '#adapters/engines/local/prompt-avatar';

test('draws a square PNG portrait, stores it under the key asked, and answers its rig and seed', async () => {
  const stored = new Map<string, { bytes: Buffer; contentType: string }>();
  const { readFile } = await import('node:fs/promises');
  const engine = createLocalAvatarEngine({
    blobs: {
      putFile: async (key, file, contentType) => void stored.set(key, { bytes: await readFile(file), contentType }),
      getToFile: async () => {
        throw new Error('a portrait reads nothing');
      },
    },
  });
  const avatar = await engine.avatarFromPrompt('a woman with curly hair and glasses', { outputKey: 'accounts/1/avatars/1/image.png', seed: 42 });
  expect(engine.name).toBe('local');
  expect(avatar).toMatchObject({ width: AVATAR_SIZE, height: AVATAR_SIZE, seed: 42, engine: 'local', image: { key: 'accounts/1/avatars/1/image.png', contentType: 'image/png' } });
  expect(avatar.rig).toMatchObject({ kind: 'illustrated' });
  const file = stored.get('accounts/1/avatars/1/image.png')!;
  expect(file.contentType).toBe('image/png');
  expect(await sharp(file.bytes).metadata()).toMatchObject({ format: 'png', width: AVATAR_SIZE, height: AVATAR_SIZE });
  expect(avatar.image.sizeBytes).toBe(file.bytes.length);
});

test('the same prompt and seed draw the same portrait (deterministic)', async () => {
  const bytes: Buffer[] = [];
  const { readFile } = await import('node:fs/promises');
  const engine = createLocalAvatarEngine({ blobs: { putFile: async (_key, file) => void bytes.push(await readFile(file)), getToFile: async () => undefined } });
  for (let i = 0; i < 2; i++) await engine.avatarFromPrompt('a chef', { outputKey: 'k', seed: 7 });
  expect(bytes[0]!.equals(bytes[1]!)).toBe(true);
});
