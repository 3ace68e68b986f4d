import { AppError } from '#domain/errors';
import {
  REFERENCE_HOSTS,
  REFERENCE_URL_MAX_LENGTH,
  checkReferenceUrl,
  hostMatchesDomain,
  inspectReferenceUrl,
} from '#domain/reference-url';

function refusal(raw: unknown): AppError {
  try {
    checkReferenceUrl(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error(`expected ${String(raw)} to be refused`);
}

describe('checkReferenceUrl: links a motion job may name', () => {
  it.each([
    'https://www.tiktok.com/@someone/video/7301234567890123456',
    'https://vm.tiktok.com/ZMabc123/',
    'https://v16m.tiktokcdn.com/abc/video/tos/useast2a/clip.mp4?mime_type=video_mp4',
    'https://v19.tiktokcdn-us.com/clip.mp4',
    'https://www.instagram.com/reel/Cxyz123/',
    'https://scontent-lax3-1.cdninstagram.com/o1/v/t16/f1/m82/clip.mp4?efg=abc',
    'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    'https://youtu.be/dQw4w9WgXcQ',
    'https://rr3---sn-ab5l6nrz.googlevideo.com/videoplayback?expire=1',
    'https://www.facebook.com/reel/123456789',
    'https://fb.watch/abcDEF/',
    'https://video-lax3-1.xx.fbcdn.net/v/t42.1790-2/clip.mp4',
    'https://www.snapchat.com/spotlight/W7_EDlXWTBiXAEEniNoMPwAAYaGR',
    'https://cf-st.sc-cdn.net/d/abc.mp4',
    'https://x.com/someone/status/1234567890',
    'https://twitter.com/someone/status/1234567890',
    'https://t.co/AbCdEf',
    'https://video.twimg.com/ext_tw_video/1/pu/vid/720x1280/clip.mp4',
  ])('accepts %s', (raw) => {
    expect(checkReferenceUrl(raw).href).toBe(new URL(raw).href);
  });

  it('accepts upper-case hosts and an explicit :443, which the URL parser normalises', () => {
    expect(checkReferenceUrl('https://WWW.TikTok.COM:443/@a/video/1').href).toBe('https://www.tiktok.com/@a/video/1');
  });

  it('refuses a scheme other than https with 400 bad_request naming the scheme', () => {
    for (const raw of ['http://www.tiktok.com/@a/video/1', 'ftp://www.tiktok.com/clip.mp4', 'file:///etc/passwd', 'data:video/mp4;base64,AAAA', 'javascript:alert(1)']) {
      const error = refusal(raw);
      expect(error).toMatchObject({ status: 400, code: 'bad_request' });
      expect(error.message).toMatch(/^reference_url must use https/);
    }
  });

  it('refuses user info (credentials or the @-confusion trick)', () => {
    for (const raw of ['https://user:pass@www.tiktok.com/x', 'https://www.tiktok.com@evil.example/x', 'https://user@www.tiktok.com/x']) {
      expect(refusal(raw).message).toMatch(/user name or password|not on the allowed list/);
    }
    expect(refusal('https://user:pass@www.tiktok.com/x').message).toBe('reference_url must not contain a user name or password');
  });

  it('refuses any port other than the default', () => {
    for (const raw of ['https://www.tiktok.com:8443/x', 'https://www.tiktok.com:80/x', 'https://www.tiktok.com:22/x']) {
      expect(refusal(raw).message).toMatch(/must not name a port/);
    }
  });

  it('refuses a host that is not on the list, naming it', () => {
    expect(refusal('https://example.com/clip.mp4').message).toBe(
      'reference_url must be a link to TikTok, Instagram, YouTube Shorts, Facebook, Snapchat or X/Twitter; host "example.com" is not on the allowed list',
    );
  });

  it.each([
    'https://evil-tiktok.com/x.mp4',
    'https://tiktok.com.evil.com/x.mp4',
    'https://www.tiktok.com.evil.com/x.mp4',
    'https://nottiktok.com/x.mp4',
    'https://tiktokcdn.com-evil.net/x.mp4',
    'https://youtube.co/x',
    'https://xn--tktok-5ve.com/x', // "tіktok" with a Cyrillic і, as the parser encodes it
    'https://tіktok.com/x', // the same look-alike typed in Unicode
    'https://co/x',
    'https://myx.com/x',
  ])('refuses the look-alike host in %s', (raw) => {
    expect(refusal(raw).message).toMatch(/not on the allowed list/);
  });

  it.each([
    'https://127.0.0.1/x',
    'https://2130706433/x', // 127.0.0.1 as one number
    'https://0x7f.1/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[fd00:ec2::254]/x',
    'https://93.184.216.34/x',
  ])('refuses the IP-literal host in %s', (raw) => {
    expect(refusal(raw).message).toBe('reference_url must name a host, not an IP address');
  });

  it('refuses a trailing-dot host name', () => {
    expect(refusal('https://www.tiktok.com./x').message).toMatch(/trailing dot/);
  });

  it('refuses a link longer than 2048 characters, and takes one of exactly 2048', () => {
    const base = 'https://v16m.tiktokcdn.com/';
    const exact = base + 'a'.repeat(REFERENCE_URL_MAX_LENGTH - base.length);
    expect(checkReferenceUrl(exact).href).toBe(exact);
    expect(refusal(`${exact}a`).message).toBe('reference_url must be at most 2048 characters long (got 2049)');
  });

  it('refuses what is not a URL, is empty, is not a string, or hides whitespace', () => {
    expect(refusal('www.tiktok.com/@a/video/1').message).toMatch(/is not a valid URL/);
    expect(refusal('').message).toMatch(/must not be empty/);
    expect(refusal(42).message).toMatch(/must be a string/);
    expect(refusal('https://www.tik\ttok.com/x').message).toMatch(/spaces or control characters/);
    expect(refusal(' https://www.tiktok.com/x').message).toMatch(/spaces or control characters/);
  });

  it('names the field it was given', () => {
    expect(() => checkReferenceUrl('http://x.com/a', { field: 'reference_url (regenerate)' })).toThrow(/^reference_url \(regenerate\) must use https/);
  });

  it('takes a narrower allow-list when given one', () => {
    expect(inspectReferenceUrl('https://www.tiktok.com/x', { allowedDomains: ['instagram.com'] })).toMatchObject({ ok: false });
    expect(inspectReferenceUrl('https://www.instagram.com/x', { allowedDomains: ['instagram.com'] })).toMatchObject({ ok: true });
  });
});

describe('the allow-list', () => {
  it('covers every platform the allow-list documents', () => {
    const platforms = new Set(REFERENCE_HOSTS.map((h) => h.platform));
    expect([...platforms].sort()).toEqual(['Facebook', 'Instagram', 'Snapchat', 'TikTok', 'X', 'YouTube']);
  });

  it('holds registrable domains only: lower case, no wildcard, no leading dot, no duplicates', () => {
    const domains = REFERENCE_HOSTS.map((h) => h.domain);
    expect(new Set(domains).size).toBe(domains.length);
    for (const domain of domains) expect(domain).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  it('matches whole labels only', () => {
    expect(hostMatchesDomain('tiktok.com', 'tiktok.com')).toBe(true);
    expect(hostMatchesDomain('a.b.tiktok.com', 'tiktok.com')).toBe(true);
    expect(hostMatchesDomain('evil-tiktok.com', 'tiktok.com')).toBe(false);
    expect(hostMatchesDomain('tiktok.com.evil.com', 'tiktok.com')).toBe(false);
    expect(hostMatchesDomain('eviltiktok.com', 'tiktok.com')).toBe(false);
    expect(hostMatchesDomain('anything', '')).toBe(false);
  });
});
