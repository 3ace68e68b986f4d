import { METADATA_ADDRESSES, judgeAddress } from '#adapters/reference/address-policy';
import { sniffVideoContainer } from '#adapters/reference/media-sniff';

describe('judgeAddress: only public unicast addresses may be connected to', () => {
  it.each([
    ['93.184.216.34', 4],
    ['151.101.1.140', 4],
    ['8.8.8.8', 4],
    ['2606:2800:220:1:248:1893:25c8:1946', 6],
    ['2a03:2880:f10c:83:face:b00c:0:25de', 6],
  ])('allows %s', (address, family) => {
    expect(judgeAddress(address)).toEqual({ allowed: true, address, family });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.53.1.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.4.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.170.2', 'cloud metadata'],
    ['169.254.10.10', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'cloud metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['198.18.0.1', 'reserved'], // benchmarking 198.18/15
    ['192.0.2.1', 'reserved'], // documentation
    ['192.0.0.8', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped cloud metadata'],
    ['::ffff:100.64.0.1', 'IPv4-mapped carrierGradeNat'],
    ['::7f00:1', 'outside global unicast 2000::/3'], // deprecated IPv4-compatible form of 127.0.0.1
    ['::127.0.0.1', 'IPv4-mapped loopback'], // ipaddr.js reads the dotted tail as mapped: still refused
    ['4000::1', 'outside global unicast 2000::/3'], // unassigned
    ['64:ff9b::7f00:1', 'rfc6052'], // NAT64 of 127.0.0.1
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001:db8::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['100::1', 'discard'],
    ['fe80::1%eth0', 'scoped (zone) address'],
    ['localhost', 'not an IP address'],
    ['0x7f000001', 'not an IP address'],
    ['', 'not an IP address'],
  ])('refuses %s (%s)', (address, range) => {
    expect(judgeAddress(address)).toEqual({ allowed: false, address, range });
  });

  it('refuses every metadata address it names', () => {
    for (const address of METADATA_ADDRESSES) expect(judgeAddress(address)).toMatchObject({ allowed: false, range: 'cloud metadata' });
  });

  it('connects to a public IPv4-mapped address as plain IPv4', () => {
    expect(judgeAddress('::ffff:93.184.216.34')).toEqual({ allowed: true, address: '93.184.216.34', family: 4 });
  });
});

describe('sniffVideoContainer: the first bytes must be a video container', () => {
  const ftyp = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(20)]);

  it('takes MP4, MOV, WebM and AVI, as uploads do; FLV and MPEG-TS are refused', async () => {
    expect(await sniffVideoContainer(ftyp('isom'))).toEqual({ video: true, container: 'mp4' });
    expect(await sniffVideoContainer(ftyp('qt  '))).toEqual({ video: true, container: 'mov' });
    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84]), Buffer.from('webm', 'latin1')]);
    expect(await sniffVideoContainer(webm)).toEqual({ video: true, container: 'webm' });
    expect(await sniffVideoContainer(Buffer.from('RIFF\0\0\0\0AVI LIST', 'latin1'))).toEqual({ video: true, container: 'avi' });
    expect(await sniffVideoContainer(Buffer.from('FLV\x01\x05', 'latin1'))).toEqual({ video: false, looksLike: 'an FLV video' });
    const ts = Buffer.alloc(376);
    ts[0] = 0x47;
    ts[188] = 0x47;
    expect(await sniffVideoContainer(ts)).toEqual({ video: false, looksLike: 'an MPEG-TS stream' });
  });

  it('names what a refused file looks like', async () => {
    expect(await sniffVideoContainer(Buffer.from('<!DOCTYPE html><html><head>'))).toEqual({ video: false, looksLike: 'a web page' });
    expect(await sniffVideoContainer(Buffer.from('\n  <html lang="en">'))).toEqual({ video: false, looksLike: 'a web page' });
    expect(await sniffVideoContainer(Buffer.from('{"error":"expired"}'))).toEqual({ video: false, looksLike: 'a JSON document' });
    // An ID3 tag whose size (cover art) runs past the bytes sniffed.
    const id3 = Buffer.concat([Buffer.from('ID3\x04\0\0', 'latin1'), Buffer.from([0, 0, 0x10, 0])]);
    expect(await sniffVideoContainer(id3)).toEqual({ video: false, looksLike: 'MP3 audio' });
    expect(await sniffVideoContainer(ftyp('avif'))).toEqual({ video: false, looksLike: 'a HEIF/AVIF image' });
    expect(await sniffVideoContainer(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ video: false, looksLike: 'a JPEG image' });
    expect(await sniffVideoContainer(Buffer.alloc(0))).toEqual({ video: false, looksLike: 'an empty file' });
    expect(await sniffVideoContainer(Buffer.from([0x00, 0x13, 0x37, 0x42, 0x99]))).toEqual({ video: false, looksLike: 'a file of unrecognised type' });
  });
});
