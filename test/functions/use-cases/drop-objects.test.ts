import { dropObjectsIfFails } from '#use-cases/drop-objects';

/** A blob store that only records what it was asked to delete, failing when told to. */
const deletions = (fails = false) => {
  const deleted: string[][] = [];
  return {
    deleted,
    blobs: {
      deleteKeys: async (keys: readonly string[]) => {
        deleted.push([...keys]);
        if (fails) throw new Error('storage is down');
      },
    },
  };
};

describe('dropObjectsIfFails', () => {
  test('a write that succeeds keeps the objects and answers what the write answered', async () => {
    const { blobs, deleted } = deletions();
    await expect(dropObjectsIfFails(blobs, ['a/1.png'], async () => 'recorded')).resolves.toBe('recorded');
    expect(deleted).toEqual([]);
  });

  test("a write that fails deletes the objects and rethrows the write's own error", async () => {
    const { blobs, deleted } = deletions();
    const refused = new Error('the library is full');
    await expect(dropObjectsIfFails(blobs, ['a/1.png', 'a/1.jpg'], async () => Promise.reject(refused))).rejects.toBe(refused);
    expect(deleted).toEqual([['a/1.png', 'a/1.jpg']]);
  });

  test("a failed delete is ignored: the caller still sees the write's error", async () => {
    const { blobs, deleted } = deletions(true);
    const refused = new Error('the library is full');
    await expect(dropObjectsIfFails(blobs, ['a/1.png'], async () => Promise.reject(refused))).rejects.toBe(refused);
    expect(deleted).toHaveLength(1);
  });

  test('with no objects, nothing is deleted', async () => {
    const { blobs, deleted } = deletions();
    await expect(dropObjectsIfFails(blobs, [], async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(deleted).toEqual([]);
  });
});
