/**
 * The linked-file downloader (demo_video_url, image_url) against a loopback server: any public https
 * host, the reference downloader's vetting on every hop, the size cap, and nothing left on refusal.
 * As in the reference resolver's test, the injected transport carries the https options it built to
 * the loopback server, and the injected DNS answers what each case needs.
 */
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createLinkedFileDownloader, type HostLookup, type HttpsTransport } from '#adapters/reference/direct-media-resolver';
import { RemoteFileError } from '#ports/remote-files';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const routes = new Map<string, Handler>();
const dns: Record<string, string[]> = {
  'files.example.com': ['93.184.216.34'],
  'cdn.example.net': ['2606:2800:220:1:248:1893:25c8:1946'],
  'intranet.example.com': ['10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
};
let server: http.Server;
let port: number;
let dir: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const handler = routes.get(`${req.headers.host}${req.url}`);
    if (handler) handler(req, res);
    else res.writeHead(404).end('no route');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  routes.clear();
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'linked-file-test-'));
});
afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

const lookup: HostLookup = async (host) => {
  const answers = dns[host];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const transport: HttpsTransport = (options) =>
  http.request({ host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers, signal: options.signal, timeout: options.timeout, agent: false });

const downloader = () => createLinkedFileDownloader({ lookup, transport });
const destination = () => path.join(dir, 'file');
const leftovers = async () => fsp.readdir(dir);

async function refusal(url: string, maxBytes = 1024): Promise<RemoteFileError> {
  const error = await downloader().download(url, { maxBytes, destinationPath: destination() }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RemoteFileError);
  expect(await leftovers()).toEqual([]);
  return error as RemoteFileError;
}

describe('linked files', () => {
  test('a file on any public host is saved whatever its type (the caller judges it)', async () => {
    routes.set('files.example.com/me.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(500, 7)));
    const file = await downloader().download('https://files.example.com/me.png', { maxBytes: 1024, destinationPath: destination() });
    expect(file).toEqual({ path: destination(), sizeBytes: 500, finalUrl: 'https://files.example.com/me.png' });
    expect((await fsp.readFile(destination())).equals(Buffer.alloc(500, 7))).toBe(true);
  });

  test('a redirect to another public host is followed', async () => {
    routes.set('files.example.com/old', (_req, res) => res.writeHead(302, { location: 'https://cdn.example.net/new.mp4' }).end());
    routes.set('cdn.example.net/new.mp4', (_req, res) => res.writeHead(200).end(Buffer.alloc(10)));
    const file = await downloader().download('https://files.example.com/old', { maxBytes: 1024, destinationPath: destination() });
    expect(file.finalUrl).toBe('https://cdn.example.net/new.mp4');
  });

  test.each([
    ['a redirect to a host on a private network', 'https://intranet.example.com/secret'],
    ['a redirect to the cloud metadata address by name', 'https://metadata.example.com/latest/meta-data/'],
    ['a redirect to an IP literal', 'https://10.0.0.5/secret'],
    ['a redirect to plain http', 'http://files.example.com/x'],
  ])('%s is refused', async (_label, target) => {
    routes.set('files.example.com/jump', (_req, res) => res.writeHead(302, { location: target }).end());
    const error = await refusal('https://files.example.com/jump');
    expect(error.reason).toBe('refused');
    expect(error.message).toMatch(/redirected|private|reserved/);
  });

  test.each([
    ['a private host', 'https://intranet.example.com/x'],
    ['plain http', 'http://files.example.com/x'],
    ['a port', 'https://files.example.com:8443/x'],
    ['an unknown host', 'https://nowhere.example.org/x'],
  ])('a link to %s is refused', async (_label, url) => {
    expect((await refusal(url)).reason).toBe('refused');
  });

  test('a file over the cap is too_large, by its Content-Length or by what arrives', async () => {
    routes.set('files.example.com/big', (_req, res) => res.writeHead(200, { 'content-length': '2048' }).end(Buffer.alloc(2048)));
    routes.set('files.example.com/chunked', (_req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(800));
      res.end(Buffer.alloc(800));
    });
    expect((await refusal('https://files.example.com/big')).reason).toBe('too_large');
    expect((await refusal('https://files.example.com/chunked')).reason).toBe('too_large');
  });

  test('a server error is unavailable (try again), a missing file is refused', async () => {
    routes.set('files.example.com/busy', (_req, res) => res.writeHead(503).end());
    expect((await refusal('https://files.example.com/busy')).reason).toBe('unavailable');
    expect((await refusal('https://files.example.com/missing')).reason).toBe('refused');
  });
});
