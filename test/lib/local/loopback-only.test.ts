/**
 * Nothing the local stack starts can be reached from the network: DynamoDB Local and s3rver have no
 * real authentication, the sandboxes accept any sandbox key, and the API's demo account is known.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { startTestStack, type TestStack } from '#test-support/local-stack';

interface ListeningSocket {
  address: string;
  port: number;
}

/** "0100007F" (IPv4, one little-endian word) or 32 hex digits (IPv6, four such words) to text. */
function decodeAddress(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((word) => word.match(/../g)!.reverse().join(''));
  if (words.length === 1) return words[0]!.match(/../g)!.map((b) => parseInt(b, 16)).join('.');
  const groups = words.join('').match(/.{4}/g)!.map((g) => parseInt(g, 16).toString(16));
  return groups.join(':');
}

/** The sockets in state LISTEN, from the kernel's own tables (every socket of this network namespace). */
function listeningSockets(): ListeningSocket[] {
  const sockets: ListeningSocket[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue; // No IPv6 in this kernel.
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (!local || state !== '0A') continue;
      const [hex, port] = local.split(':');
      sockets.push({ address: decodeAddress(hex!), port: parseInt(port!, 16) });
    }
  }
  return sockets;
}

/** 127.0.0.0/8, ::1, or IPv4-mapped 127.0.0.0/8. */
function isLoopback(address: string): boolean {
  if (/^127\./.test(address) || address === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^0:0:0:0:0:ffff:([0-9a-f]+):([0-9a-f]+)$/.exec(address);
  return mapped !== null && parseInt(mapped[1]!, 16) >> 8 === 127;
}

/** This machine's own addresses that are not loopback (link-local ones with their interface). */
function nonLoopbackAddresses(): string[] {
  return Object.entries(networkInterfaces()).flatMap(([name, infos]) =>
    (infos ?? []).filter((i) => !i.internal).map((i) => (i.family === 'IPv6' && i.address.startsWith('fe80:') ? `${i.address}%${name}` : i.address)),
  );
}

function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('the local stack listens on loopback only', () => {
  let t: TestStack;
  let services: Record<string, number>;

  beforeAll(async () => {
    t = await startTestStack({ sandboxes: {} });
    const portOf = (url: string) => Number(new URL(url).port);
    services = {
      api: portOf(t.stack.apiUrl),
      'DynamoDB Local': portOf(t.stack.dynamoEndpoint),
      s3rver: portOf(t.stack.s3Endpoint),
      'provider_a sandbox': portOf(t.stack.sandboxes!.urls.provider_a),
      'provider_b sandbox': portOf(t.stack.sandboxes!.urls.provider_b),
    };
  }, 120_000);

  afterAll(() => t?.stop(), 60_000);

  test("every service's listening sockets are bound to a loopback address, as the kernel reports them", () => {
    const sockets = listeningSockets();
    const bound = Object.fromEntries(Object.entries(services).map(([name, port]) => [name, sockets.filter((s) => s.port === port).map((s) => s.address)]));
    for (const [name, addresses] of Object.entries(bound)) {
      expect({ name, listening: addresses.length > 0 }).toEqual({ name, listening: true });
      expect({ name, addresses: addresses.filter((a) => !isLoopback(a)) }).toEqual({ name, addresses: [] });
    }
  });

  test("every service answers on 127.0.0.1 and refuses connections on each of this machine's other addresses", async () => {
    const outcomes: Record<string, string> = {};
    for (const [name, port] of Object.entries(services)) {
      outcomes[`${name} on 127.0.0.1`] = await tryConnect('127.0.0.1', port);
      for (const address of nonLoopbackAddresses()) outcomes[`${name} on ${address}`] = await tryConnect(address, port);
    }
    const expected = Object.fromEntries(Object.keys(outcomes).map((k) => [k, k.endsWith('on 127.0.0.1') ? 'connected' : 'ECONNREFUSED']));
    expect(outcomes).toEqual(expected);
  });

  test('DynamoDB Local lets no web page read its answers: no CORS header for a foreign origin, even on a preflight', async () => {
    const preflight = await fetch(t.stack.dynamoEndpoint, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-amz-target,content-type,authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const call = await fetch(t.stack.dynamoEndpoint, {
      method: 'POST',
      headers: {
        origin: 'http://evil.example',
        'x-amz-target': 'DynamoDB_20120810.ListTables',
        'content-type': 'application/x-amz-json-1.0',
        authorization: 'AWS4-HMAC-SHA256 Credential=local/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: '{}',
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('reading the kernel socket tables', () => {
  test('decodes IPv4, IPv6 and IPv4-mapped loopback addresses, and tells them from others', () => {
    expect(decodeAddress('0100007F')).toBe('127.0.0.1');
    expect(decodeAddress('00000000000000000000000001000000')).toBe('0:0:0:0:0:0:0:1');
    expect(decodeAddress('0000000000000000FFFF00000100007F')).toBe('0:0:0:0:0:ffff:7f00:1');
    expect(['127.0.0.1', '0:0:0:0:0:0:0:1', '0:0:0:0:0:ffff:7f00:1'].every(isLoopback)).toBe(true);
    expect(['0.0.0.0', '0:0:0:0:0:0:0:0', '192.0.2.2', '0:0:0:0:0:ffff:c000:202'].some(isLoopback)).toBe(false);
  });
});
