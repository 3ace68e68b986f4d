/**
 * The WebSocket wire format (RFC 6455 §5) as the local server needs it: the opening handshake's
 * accept value, a reader that turns a client's byte stream into whole messages (fragments joined,
 * masks removed, control frames passed on as they come) and the writer of unmasked server frames.
 * API Gateway plays this part on AWS; the repository has no WebSocket server package, and the protocol
 * a local stack needs is this small.
 */
import { createHash } from 'node:crypto';

const HANDSHAKE_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Sec-WebSocket-Accept for a client's Sec-WebSocket-Key (§4.2.2). */
export const acceptValue = (key: string) => createHash('sha1').update(`${key}${HANDSHAKE_GUID}`).digest('base64');

/** A key is 16 random bytes, base64: anything else is not a WebSocket client. */
export const isHandshakeKey = (key: string | undefined): key is string => key !== undefined && /^[A-Za-z0-9+/]{22}==$/.test(key);

export const OPCODES = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

export type Incoming =
  | { kind: 'text'; text: string }
  | { kind: 'binary' }
  | { kind: 'ping'; payload: Buffer }
  | { kind: 'pong' }
  | { kind: 'close'; code?: number }
  /** The peer broke the protocol or a limit: close with `code` (§7.4.1) and say why. */
  | { kind: 'fault'; code: number; reason: string };

interface Frame {
  fin: boolean;
  opcode: number;
  payload: Buffer;
}

/** Accumulates a client's bytes; `push` answers the messages they completed. After a fault it reads nothing more. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentedOpcode: number | undefined;
  private failed = false;

  constructor(private readonly maxMessageBytes: number) {}

  push(chunk: Buffer): Incoming[] {
    if (this.failed) return [];
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const out: Incoming[] = [];
    for (;;) {
      const frame = this.nextFrame();
      if (frame === undefined) break;
      const message = 'kind' in frame ? frame : this.assemble(frame);
      if (message === undefined) continue;
      out.push(message);
      if (message.kind === 'fault') {
        this.failed = true;
        break;
      }
    }
    return out;
  }

  /** The next whole frame, unmasked, or undefined while more bytes are needed. */
  private nextFrame(): Frame | Extract<Incoming, { kind: 'fault' }> | undefined {
    const data = this.buffered;
    if (data.length < 2) return undefined;
    const fin = (data[0]! & 0x80) !== 0;
    if ((data[0]! & 0x70) !== 0) return { kind: 'fault', code: 1002, reason: 'no extension was negotiated: RSV bits must be 0' };
    const opcode = data[0]! & 0x0f;
    if ((data[1]! & 0x80) === 0) return { kind: 'fault', code: 1002, reason: 'client frames must be masked' };
    let length = data[1]! & 0x7f;
    let offset = 2;
    if (length === 126) {
      if (data.length < 4) return undefined;
      length = data.readUInt16BE(2);
      offset = 4;
    } else if (length === 127) {
      if (data.length < 10) return undefined;
      const long = data.readBigUInt64BE(2);
      if (long > BigInt(this.maxMessageBytes)) return { kind: 'fault', code: 1009, reason: `a message is at most ${this.maxMessageBytes} bytes` };
      length = Number(long);
      offset = 10;
    }
    if (length > this.maxMessageBytes) return { kind: 'fault', code: 1009, reason: `a message is at most ${this.maxMessageBytes} bytes` };
    if (data.length < offset + 4 + length) return undefined;
    const mask = data.subarray(offset, offset + 4);
    const payload = Buffer.from(data.subarray(offset + 4, offset + 4 + length));
    for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
    this.buffered = data.subarray(offset + 4 + length);
    return { fin, opcode, payload };
  }

  /** A frame's part in a message: control frames stand alone, data frames join their fragments. */
  private assemble({ fin, opcode, payload }: Frame): Incoming | undefined {
    if (opcode >= 0x8) {
      if (!fin || payload.length > 125) return { kind: 'fault', code: 1002, reason: 'control frames are single and at most 125 bytes' };
      if (opcode === OPCODES.close) return { kind: 'close', code: payload.length >= 2 ? payload.readUInt16BE(0) : undefined };
      if (opcode === OPCODES.ping) return { kind: 'ping', payload };
      if (opcode === OPCODES.pong) return { kind: 'pong' };
      return { kind: 'fault', code: 1002, reason: `unknown opcode ${opcode}` };
    }
    if (opcode === OPCODES.continuation) {
      if (this.fragmentedOpcode === undefined) return { kind: 'fault', code: 1002, reason: 'a continuation frame with no message to continue' };
    } else if (opcode === OPCODES.text || opcode === OPCODES.binary) {
      if (this.fragmentedOpcode !== undefined) return { kind: 'fault', code: 1002, reason: 'a new message before the last one ended' };
      this.fragmentedOpcode = opcode;
    } else {
      return { kind: 'fault', code: 1002, reason: `unknown opcode ${opcode}` };
    }
    this.fragments.push(payload);
    const size = this.fragments.reduce((sum, part) => sum + part.length, 0);
    if (size > this.maxMessageBytes) return { kind: 'fault', code: 1009, reason: `a message is at most ${this.maxMessageBytes} bytes` };
    if (!fin) return undefined;
    const whole = Buffer.concat(this.fragments);
    const wholeOpcode = this.fragmentedOpcode;
    this.fragments = [];
    this.fragmentedOpcode = undefined;
    if (wholeOpcode === OPCODES.binary) return { kind: 'binary' };
    const text = new TextDecoder('utf-8', { fatal: true });
    try {
      return { kind: 'text', text: text.decode(whole) };
    } catch {
      return { kind: 'fault', code: 1007, reason: 'a text message must be UTF-8' };
    }
  }
}

/** One unfragmented, unmasked frame, as a server sends (§5.1: servers never mask). */
export function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const head = length < 126 ? Buffer.alloc(2) : length < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (length < 126) head[1] = length;
  else if (length < 65536) {
    head[1] = 126;
    head.writeUInt16BE(length, 2);
  } else {
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, payload]);
}

export function closeFrame(code: number, reason: string): Buffer {
  const text = Buffer.from(reason.slice(0, 120));
  const payload = Buffer.alloc(2 + text.length);
  payload.writeUInt16BE(code, 0);
  text.copy(payload, 2);
  return encodeFrame(OPCODES.close, payload);
}
