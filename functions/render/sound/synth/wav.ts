/** A stereo buffer as a 32-bit float WAV file (a 44-byte RIFF header: too small to take a library for). */
import { SAMPLE_RATE, type StereoBuffer } from './signal';

export function wavOf(buffer: StereoBuffer): Buffer {
  const frames = buffer.length;
  const dataBytes = frames * 2 * 4;
  const out = Buffer.alloc(44 + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(3, 20); // IEEE float
  out.writeUInt16LE(2, 22);
  out.writeUInt32LE(SAMPLE_RATE, 24);
  out.writeUInt32LE(SAMPLE_RATE * 2 * 4, 28);
  out.writeUInt16LE(8, 32);
  out.writeUInt16LE(32, 34);
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < frames; i++) {
    out.writeFloatLE(buffer.left[i]!, 44 + i * 8);
    out.writeFloatLE(buffer.right[i]!, 48 + i * 8);
  }
  return out;
}
