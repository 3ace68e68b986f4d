import { promises as fsp } from 'node:fs';

/** Top-level MP4 boxes in file order, walked from the head by their size fields. */
export async function topLevelBoxes(file: string): Promise<string[]> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const types: string[] = [];
    const header = Buffer.alloc(16);
    for (let offset = 0; offset + 8 <= size; ) {
      await handle.read(header, 0, 16, offset);
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - offset;
      types.push(header.toString('latin1', 4, 8));
      if (boxSize < 8) break;
      offset += boxSize;
    }
    return types;
  } finally {
    await handle.close();
  }
}
