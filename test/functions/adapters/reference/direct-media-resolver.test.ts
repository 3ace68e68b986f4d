/**
 * The direct-media resolver against a real HTTP server on loopback. Production speaks https to the
 * vetted address of an allowed host; here the injected transport carries the very options the resolver
 * built (https, port 443, pinned lookup, Host = the allowed name) to the loopback server over plain
 * http, and the injected DNS answers what each case needs. The server routes by Host header + path, so
 * a redirect to another allowed host lands on another route of the same server.
 */
import { promises as fsp } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  NOT_A_VIDEO_FILE,
  createDirectMediaResolver,
  pinnedLookup,
  type DirectMediaResolverOptions,
  type HostLookup,
  type HttpsTransport,
} from '#adapters/reference/direct-media-resolver';
import { fileArg, runFfmpeg } from '#render';
import { EngineError } from '#ports/engine';
import type { ResolveReferenceOptions } from '#ports/reference-resolver';

const CDN = 'v16m.tiktokcdn.com';
const PUBLIC_IP = '93.184.216.34';
const KB = 1024;

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let server: http.Server;
let port: number;
let fixtures: { clip: Buffer; audioOnly: Buffer; corrupt: Buffer };
let fixtureDir: string;

const routes = new Map<string, Handler>();
let dns: Record<string, string[]>;
let lookups: string[];
let requests: https.RequestOptions[];
let seenHosts: string[];
let dir: string;

async function ffmpegToBuffer(name: string, args: string[]): Promise<Buffer> {
  const file = path.join(fixtureDir, name);
  await runFfmpeg(['-v', 'error', ...args, '-y', fileArg(file)], { timeoutMs: 60_000 });
  return fsp.readFile(file);
}

beforeAll(async () => {
  fixtureDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'reference-fixtures-'));
  const [clip, audioOnly, slowStart] = await Promise.all([
    // A small vertical MP4 with its index first, as CDNs serve them.
    ffmpegToBuffer('clip.mp4', [
      '-f', 'lavfi', '-i', 'testsrc2=s=360x640:r=30:d=2',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '32', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-f', 'mp4',
    ]),
    // AAC in an ordinary MP4 (brand isom): a video container by its bytes, with no picture in it.
    ffmpegToBuffer('audio.mp4', ['-f', 'lavfi', '-i', 'sine=f=440:r=44100:d=2', '-c:a', 'aac', '-b:a', '64k', '-f', 'mp4']),
    ffmpegToBuffer('index-last.mp4', [
      '-f', 'lavfi', '-i', 'testsrc2=s=360x640:r=30:d=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mp4',
    ]),
  ]);
  // The head of an MP4 whose index is at the end: MP4 magic, but unreadable.
  fixtures = { clip, audioOnly, corrupt: slowStart.subarray(0, 4 * KB) };

  server = http.createServer((req, res) => {
    seenHosts.push(req.headers.host ?? '');
    const handler = routes.get(`${req.headers.host}${req.url}`);
    if (handler) handler(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fsp.rm(fixtureDir, { recursive: true, force: true });
});

beforeEach(async () => {
  routes.clear();
  dns = { [CDN]: [PUBLIC_IP], 'www.tiktok.com': ['151.101.1.140'], 'video.twimg.com': ['2606:2800:220:1:248:1893:25c8:1946'] };
  lookups = [];
  requests = [];
  seenHosts = [];
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'reference-test-'));
});

afterEach(async () => {
  server.closeAllConnections();
  await fsp.rm(dir, { recursive: true, force: true });
});

const lookup: HostLookup = async (host) => {
  lookups.push(host);
  const answers = dns[host];
  if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

/** Sends what the resolver built to the loopback server; records the options for inspection. */
const loopbackTransport: HttpsTransport = (options) => {
  requests.push(options);
  return http.request({
    host: '127.0.0.1',
    port,
    method: options.method,
    path: options.path,
    headers: options.headers,
    signal: options.signal,
    timeout: options.timeout,
    agent: false,
  });
};

function resolver(overrides: DirectMediaResolverOptions = {}) {
  return createDirectMediaResolver({ lookup, transport: loopbackTransport, connectTimeoutMs: 2000, idleTimeoutMs: 2000, deadlineMs: 10_000, ...overrides });
}

function options(overrides: Partial<ResolveReferenceOptions> = {}): ResolveReferenceOptions {
  return { maxBytes: 5 * 1024 * KB, maxDurationS: 10, destinationPath: path.join(dir, 'reference.mp4'), ...overrides };
}

const serve = (host: string, pathname: string, handler: Handler) => routes.set(`${host}${pathname}`, handler);

const sendFile = (body: Buffer, contentType = 'video/mp4', extra: http.OutgoingHttpHeaders = {}): Handler => (_req, res) => {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length, ...extra }).end(body);
};

const redirect = (location: string, status = 302): Handler => (_req, res) => {
  res.writeHead(status, { location }).end();
};

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the reference to be refused');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

async function expectNoFilesLeft(): Promise<void> {
  expect(await fsp.readdir(dir)).toEqual([]);
}

describe('a direct media link of an allowed host', () => {
  it('is downloaded to the destination, with its probed duration, over https to the vetted address', async () => {
    serve(CDN, '/video/tos/clip.mp4?mime_type=video_mp4', sendFile(fixtures.clip));
    const result = await resolver().resolve(`https://${CDN}/video/tos/clip.mp4?mime_type=video_mp4`, options());

    expect(result).toEqual({
      path: path.join(dir, 'reference.mp4'),
      contentType: 'video/mp4',
      sizeBytes: fixtures.clip.length,
      durationS: expect.closeTo(2, 1),
      finalUrl: `https://${CDN}/video/tos/clip.mp4?mime_type=video_mp4`,
    });
    expect((await fsp.readFile(result.path)).equals(fixtures.clip)).toBe(true);
    expect(await fsp.readdir(dir)).toEqual(['reference.mp4']);

    // What production would have sent: https to port 443, SNI and Host = the name, no pooled socket.
    expect(requests).toHaveLength(1);
    const sent = requests[0]!;
    expect(sent).toMatchObject({ protocol: 'https:', hostname: CDN, port: 443, servername: CDN, agent: false, method: 'GET' });
    expect(sent.headers).toMatchObject({ host: CDN, 'accept-encoding': 'identity' });
    expect(seenHosts).toEqual([CDN]);
    // The pinned lookup answers the vetted address whatever it is asked: no second DNS resolution.
    const pinned = await new Promise((resolve) => sent.lookup!('attacker.example', { all: true }, (_e, addresses) => resolve(addresses)));
    expect(pinned).toEqual([{ address: PUBLIC_IP, family: 4 }]);
    const single = await new Promise((resolve) => sent.lookup!(CDN, {}, (_e, address, family) => resolve([address, family])));
    expect(single).toEqual([PUBLIC_IP, 4]);
  });

  it('is accepted as application/octet-stream when its bytes are video, also chunked with no length', async () => {
    serve('video.twimg.com', '/clip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < fixtures.clip.length; i += 7 * KB) res.write(fixtures.clip.subarray(i, i + 7 * KB));
      res.end();
    });
    const result = await resolver().resolve('https://video.twimg.com/clip', options());
    expect(result).toMatchObject({ contentType: 'application/octet-stream', sizeBytes: fixtures.clip.length });
    expect(result.durationS).toBeCloseTo(2, 1);
  });

  it('is reached through up to 5 redirects, relative or absolute, each hop resolved and vetted', async () => {
    serve('www.tiktok.com', '/r/0', redirect('/r/1', 301));
    serve('www.tiktok.com', '/r/1', redirect('https://www.tiktok.com/r/2', 302));
    serve('www.tiktok.com', '/r/2', redirect('/r/3', 303));
    serve('www.tiktok.com', '/r/3', redirect('r/4', 307));
    serve('www.tiktok.com', '/r/r/4', redirect(`https://${CDN}/clip.mp4`, 308));
    serve(CDN, '/clip.mp4', sendFile(fixtures.clip));
    const result = await resolver().resolve('https://www.tiktok.com/r/0', options());
    expect(result.finalUrl).toBe(`https://${CDN}/clip.mp4`);
    expect(seenHosts).toEqual([...Array(5).fill('www.tiktok.com'), CDN]);
    expect(lookups).toEqual([...Array(5).fill('www.tiktok.com'), CDN]);
  });

  it('is fetched from the address vetted at the hop: a DNS answer that changes later is never used', async () => {
    let asked = 0;
    const rebinding: HostLookup = async () => {
      asked += 1;
      return [{ address: asked === 1 ? PUBLIC_IP : '127.0.0.1', family: 4 }];
    };
    serve(CDN, '/clip.mp4', sendFile(fixtures.clip));
    await resolver({ lookup: rebinding }).resolve(`https://${CDN}/clip.mp4`, options());
    expect(asked).toBe(1);
    const pinned = await new Promise((resolve) => requests[0]!.lookup!(CDN, { all: true }, (_e, a) => resolve(a)));
    expect(pinned).toEqual([{ address: PUBLIC_IP, family: 4 }]);
  });
});

describe('a link refused before anything is connected to', () => {
  it.each([
    ['a scheme other than https', `http://${CDN}/clip.mp4`, /must use https/],
    ['user info', `https://user:secret@${CDN}/clip.mp4`, /user name or password/],
    ['a port other than 443', `https://${CDN}:8443/clip.mp4`, /must not name a port/],
    ['a host not on the list', 'https://cdn.example.com/clip.mp4', /host "cdn\.example\.com" is not on the allowed list/],
    ['a look-alike host (hyphen)', 'https://evil-tiktok.com/clip.mp4', /not on the allowed list/],
    ['a look-alike host (suffix)', 'https://tiktok.com.evil.com/clip.mp4', /not on the allowed list/],
    ['an IP-literal host', 'https://127.0.0.1/clip.mp4', /not an IP address/],
    ['an IPv6-literal host', 'https://[::1]/clip.mp4', /not an IP address/],
  ])('%s', async (_what, url, message) => {
    const error = await refusal(resolver().resolve(url, options()));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'link', retryable: false });
    expect(error.message).toMatch(/^The reference link is not allowed: it /);
    expect(error.message).toMatch(message);
    expect(lookups).toEqual([]);
    expect(requests).toEqual([]);
  });

  it.each([
    ['127.0.0.1'],
    ['10.1.2.3'],
    ['192.168.0.10'],
    ['172.20.0.1'],
    ['169.254.169.254'],
    ['100.64.0.1'],
    ['0.0.0.0'],
    ['::1'],
    ['fc00::1'],
    ['fd00:ec2::254'],
    ['fe80::1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:169.254.169.254'],
    ['64:ff9b::a00:1'],
  ])('when the host resolves to %s', async (address) => {
    dns[CDN] = [address];
    const error = await refusal(resolver().resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'link', retryable: false });
    expect(error.message).toMatch(/^The reference link's host "v16m\.tiktokcdn\.com" resolves to a private or reserved network address/);
    expect(requests).toEqual([]);
  });

  it('when one answer of several is private, even if the public one comes first', async () => {
    dns[CDN] = [PUBLIC_IP, '10.0.0.7'];
    const error = await refusal(resolver().resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error.message).toMatch(/private or reserved network address \(private\)/);
    expect(requests).toEqual([]);
  });

  it('when the host does not exist', async () => {
    const error = await refusal(resolver().resolve('https://nothing-here.tiktokcdn.com/clip.mp4', options()));
    expect(error).toMatchObject({ code: 'invalid_input', message: 'The reference link\'s host "nothing-here.tiktokcdn.com" does not exist.' });
  });
});

describe('redirects', () => {
  it('to a host that resolves to a private address are refused before connecting there', async () => {
    dns['internal.tiktokcdn.com'] = ['10.0.0.5'];
    serve(CDN, '/go', redirect('https://internal.tiktokcdn.com/admin'));
    const error = await refusal(resolver().resolve(`https://${CDN}/go`, options()));
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect(error.message).toMatch(/"internal\.tiktokcdn\.com" resolves to a private or reserved network address/);
    expect(seenHosts).toEqual([CDN]);
  });

  it('to the metadata service by address are refused', async () => {
    serve(CDN, '/go', redirect('https://169.254.169.254/latest/meta-data/'));
    const error = await refusal(resolver().resolve(`https://${CDN}/go`, options()));
    expect(error.message).toBe('The reference link redirected to a URL that is not allowed: it must name a host, not an IP address.');
    expect(requests).toHaveLength(1);
  });

  it('to a host not on the list are refused without resolving it', async () => {
    dns['evil.example'] = [PUBLIC_IP];
    serve(CDN, '/go', redirect('https://evil.example/clip.mp4'));
    const error = await refusal(resolver().resolve(`https://${CDN}/go`, options()));
    expect(error.message).toMatch(/^The reference link redirected to a URL that is not allowed: it .*host "evil\.example" is not on the allowed list/);
    expect(lookups).toEqual([CDN]);
  });

  it('to plain http are refused', async () => {
    serve(CDN, '/go', redirect(`http://${CDN}/clip.mp4`));
    const error = await refusal(resolver().resolve(`https://${CDN}/go`, options()));
    expect(error.message).toMatch(/redirected to a URL that is not allowed: it must use https/);
  });

  it('in a loop are refused', async () => {
    serve(CDN, '/a', redirect('/b'));
    serve(CDN, '/b', redirect('/a'));
    const error = await refusal(resolver().resolve(`https://${CDN}/a`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', message: 'The reference link redirects in a loop.' });
    expect(requests).toHaveLength(2);
  });

  it('more than 5 in a row are refused', async () => {
    for (let i = 0; i < 6; i++) serve(CDN, `/hop/${i}`, redirect(`/hop/${i + 1}`));
    serve(CDN, '/hop/6', sendFile(fixtures.clip));
    const error = await refusal(resolver().resolve(`https://${CDN}/hop/0`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', message: 'The reference link redirected more than 5 times.' });
    expect(requests).toHaveLength(6);
  });

  it('without a Location are refused', async () => {
    serve(CDN, '/go', (_req, res) => res.writeHead(302).end());
    const error = await refusal(resolver().resolve(`https://${CDN}/go`, options()));
    expect(error.message).toMatch(/without saying where to/);
  });
});

describe('what the server sends', () => {
  it('an HTML page is refused, asking for the video file itself', async () => {
    serve('www.tiktok.com', '/@someone/video/1', sendFile(Buffer.from('<!doctype html><html><body>video</body></html>'), 'text/html; charset=utf-8'));
    const error = await refusal(resolver().resolve('https://www.tiktok.com/@someone/video/1', options()));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'not_video', message: NOT_A_VIDEO_FILE });
    expect(error.message).toMatch(/^The link must point to the video file itself/);
    await expectNoFilesLeft();
  });

  it('an HTML page labelled application/octet-stream is refused by its bytes', async () => {
    serve(CDN, '/clip.mp4', sendFile(Buffer.from('\n<!DOCTYPE html><html>'.padEnd(4000, ' ')), 'application/octet-stream'));
    const error = await refusal(resolver().resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', message: NOT_A_VIDEO_FILE });
    await expectNoFilesLeft();
  });

  it('a JSON error labelled video/mp4 is refused by its bytes', async () => {
    serve(CDN, '/clip.mp4', sendFile(Buffer.from('{"status_code":403,"status_msg":"expired"}'), 'video/mp4'));
    const error = await refusal(resolver().resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'not_video' });
    expect(error.message).toMatch(/^The reference link is a JSON document, not a video file/);
    await expectNoFilesLeft();
  });

  it('an audio file is refused by its declared type', async () => {
    serve(CDN, '/song.mp3', sendFile(Buffer.from('ID3\x04\0\0\0\0\0\0', 'latin1'), 'audio/mpeg'));
    const error = await refusal(resolver().resolve(`https://${CDN}/song.mp3`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'not_video', message: 'The reference link points to an audio file; a motion reference must be a video clip.' });
  });

  it('an audio-only MP4 labelled video/mp4 is refused once probed, and not kept', async () => {
    serve(CDN, '/clip.mp4', sendFile(fixtures.audioOnly));
    const error = await refusal(resolver().resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'unreadable', message: 'The reference link points to audio only; a motion reference must be a video clip.' });
    await expectNoFilesLeft();
  });

  it('a corrupt MP4 is refused once probed, and not kept', async () => {
    serve(CDN, '/clip.mp4', sendFile(fixtures.corrupt));
    const error = await refusal(resolver().resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'unreadable', message: 'The reference video could not be read: the file is damaged or not a video.' });
    await expectNoFilesLeft();
  });

  it('404 is the user\'s to fix; 503 and 429 are retryable', async () => {
    serve(CDN, '/gone', (_req, res) => res.writeHead(404).end());
    serve(CDN, '/busy', (_req, res) => res.writeHead(503).end());
    serve(CDN, '/slow-down', (_req, res) => res.writeHead(429).end());
    expect(await refusal(resolver().resolve(`https://${CDN}/gone`, options()))).toMatchObject({ code: 'invalid_input', refusal: 'link', retryable: false });
    expect(await refusal(resolver().resolve(`https://${CDN}/busy`, options()))).toMatchObject({ code: 'provider_unavailable', retryable: true });
    expect(await refusal(resolver().resolve(`https://${CDN}/slow-down`, options()))).toMatchObject({ code: 'provider_unavailable', retryable: true });
  });
});

describe('caps', () => {
  it('a Content-Length over the byte cap is refused before any of the body is read', async () => {
    let bodySent = false;
    serve(CDN, '/big.mp4', (_req, res) => {
      // Headers only: a resolver that waited for the body would end at a timeout, in that timeout's words.
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 50 * 1024 * KB });
      res.flushHeaders();
      res.on('close', () => (bodySent = res.writableFinished));
    });
    const error = await refusal(resolver({ deadlineMs: 5000 }).resolve(`https://${CDN}/big.mp4`, options({ maxBytes: 1024 * KB })));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'too_large', message: 'The reference video is 50.0 MB; the most allowed is 1.0 MB. Link a shorter or smaller clip.' });
    expect(bodySent).toBe(false);
    await expectNoFilesLeft();
  });

  it('a chunked body that runs past the cap is aborted mid-stream and leaves no partial file', async () => {
    let interval: NodeJS.Timeout | undefined;
    let sent = 0;
    const closed = new Promise<boolean>((resolveClosed) => {
      serve(CDN, '/endless.mp4', (_req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4' });
        res.write(fixtures.clip.subarray(0, 16 * KB));
        sent += 16 * KB;
        interval = setInterval(() => {
          res.write(Buffer.alloc(64 * KB));
          sent += 64 * KB;
        }, 2);
        res.on('close', () => {
          clearInterval(interval);
          resolveClosed(res.writableFinished);
        });
      });
    });
    const error = await refusal(resolver().resolve(`https://${CDN}/endless.mp4`, options({ maxBytes: 512 * KB })));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'too_large', message: 'The reference video is larger than the 0.5 MB allowed; link a shorter or smaller clip.' });
    expect(await closed).toBe(false); // the server's response never finished: the client hung up
    expect(sent).toBeLessThan(4 * 1024 * KB);
    await expectNoFilesLeft();
  });

  it('a clip longer than the duration cap is refused and not kept', async () => {
    serve(CDN, '/clip.mp4', sendFile(fixtures.clip));
    const error = await refusal(resolver().resolve(`https://${CDN}/clip.mp4`, options({ maxDurationS: 1.5 })));
    expect(error).toMatchObject({ code: 'invalid_input', refusal: 'unreadable' });
    expect(error.message).toMatch(/^The reference clip is 2\.\d s long; the most allowed is 1\.5 s\./);
    await expectNoFilesLeft();
  });
});

describe('slow servers, network trouble and cancellation', () => {
  it('a server that never answers hits the connect/headers timeout: retryable, nothing kept', async () => {
    serve(CDN, '/hang', () => undefined);
    // Each bound says its own words: this one is the connect/headers timeout's, not the idle timeout's or the deadline's.
    const error = await refusal(resolver({ connectTimeoutMs: 300 }).resolve(`https://${CDN}/hang`, options()));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true, message: "The reference link's server did not answer within 0.3 s; try again later." });
    await expectNoFilesLeft();
  });

  it('a server that stalls mid-body hits the idle timeout and leaves no partial file', async () => {
    serve(CDN, '/stall.mp4', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fixtures.clip.length });
      res.write(fixtures.clip.subarray(0, 8 * KB));
    });
    const error = await refusal(resolver({ idleTimeoutMs: 300 }).resolve(`https://${CDN}/stall.mp4`, options()));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true, message: "The reference link's server stopped sending data for 0.3 s; try again later." });
    await expectNoFilesLeft();
  });

  it('a server that trickles forever hits the overall deadline', async () => {
    let interval: NodeJS.Timeout | undefined;
    serve(CDN, '/trickle.mp4', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.write(fixtures.clip.subarray(0, 8 * KB));
      interval = setInterval(() => res.write(Buffer.alloc(KB)), 50);
      res.on('close', () => clearInterval(interval));
    });
    const error = await refusal(resolver({ deadlineMs: 800 }).resolve(`https://${CDN}/trickle.mp4`, options()));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true, message: 'The reference link took longer than 0.8 s to download; try again later.' });
    await expectNoFilesLeft();
  });

  it('a connection refused is retryable', async () => {
    const closedPort = await new Promise<number>((resolvePort) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolvePort(p));
      });
    });
    const refused: HttpsTransport = (o) => http.request({ host: '127.0.0.1', port: closedPort, path: o.path, headers: o.headers, signal: o.signal, agent: false });
    const error = await refusal(resolver({ transport: refused }).resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error).toMatchObject({ code: 'provider_unavailable', retryable: true });
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it("the caller's signal cancels the download and removes the partial file", async () => {
    serve(CDN, '/stall.mp4', (_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': fixtures.clip.length });
      res.write(fixtures.clip.subarray(0, 8 * KB));
    });
    const controller = new AbortController();
    const pending = resolver().resolve(`https://${CDN}/stall.mp4`, options({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    expect(await refusal(pending)).toMatchObject({ code: 'cancelled', retryable: false });
    await expectNoFilesLeft();
  });

  it('cannot be turned into plain http by passing http.request as the transport', async () => {
    const error = await refusal(resolver({ transport: http.request as unknown as HttpsTransport }).resolve(`https://${CDN}/clip.mp4`, options()));
    expect(error).toMatchObject({ code: 'engine_failure' });
    expect((error.cause as NodeJS.ErrnoException).code).toBe('ERR_INVALID_PROTOCOL');
  });
});

describe('the pinned lookup, with the production https transport', () => {
  it('connects https.request to the pinned address, not to what DNS says of the name, and sends the name as SNI', async () => {
    // A raw TCP listener: it records the TLS ClientHello (where SNI travels in clear) and hangs up.
    let helloSeen: (hello: Buffer) => void = () => undefined;
    const hello = new Promise<Buffer>((resolveHello) => (helloSeen = resolveHello));
    const tcp = net.createServer((socket) => socket.once('data', (chunk: Buffer) => {
      helloSeen(chunk);
      socket.destroy();
    }));
    await new Promise<void>((resolveListen) => tcp.listen(0, '127.0.0.1', resolveListen));
    try {
      const request = https.request({
        protocol: 'https:',
        hostname: CDN, // not resolvable here (no network): only the pinned lookup can reach the listener
        port: (tcp.address() as AddressInfo).port,
        servername: CDN,
        path: '/clip.mp4',
        agent: false,
        lookup: pinnedLookup([{ address: '127.0.0.1', family: 4 }]),
      });
      request.on('error', () => undefined);
      request.end();
      expect((await hello).includes(Buffer.from(CDN, 'latin1'))).toBe(true);
      request.destroy();
    } finally {
      await new Promise((resolveClose) => tcp.close(resolveClose));
    }
  }, 5000);

  it('answers only the vetted family when a family is asked for', async () => {
    const lookupFn = pinnedLookup([{ address: PUBLIC_IP, family: 4 }, { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 }]);
    const ask = (opts: { family?: number; all?: boolean }) =>
      new Promise((resolveAsk) => lookupFn('any.name', opts, (error, address, family) => resolveAsk(error ? error.code : [address, family])));
    expect(await ask({ family: 6 })).toEqual(['2606:2800:220:1:248:1893:25c8:1946', 6]);
    expect(await ask({ family: 4, all: true })).toEqual([[{ address: PUBLIC_IP, family: 4 }], undefined]);
    const v4only = pinnedLookup([{ address: PUBLIC_IP, family: 4 }]);
    expect(await new Promise((r) => v4only('x', { family: 6 }, (error) => r(error?.code)))).toBe('ENOTFOUND');
  });
});
