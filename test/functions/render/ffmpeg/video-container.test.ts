import { fileArg } from '#functions/render/ffmpeg/binaries';
import { pinnedInput, sniffVideoContainer } from '#functions/render/ffmpeg/video-container';

const ftyp = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(12)]);
const riff = (form: string) => Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 1, 0, 0]), Buffer.from(form, 'latin1'), Buffer.alloc(8)]);
const ebml = (docType: string) => Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, docType.length | 0x80]), Buffer.from(docType, 'latin1')]);

describe('sniffVideoContainer: the container and its demuxer from the first bytes', () => {
  it.each(['isom', 'iso2', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'XAVC'])('ftyp brand "%s" is MP4, read by the mov demuxer', async (brand) => {
    expect(await sniffVideoContainer(ftyp(brand))).toEqual({ container: 'mp4', demuxer: 'mov' });
  });

  it('ftyp brand "qt  " is MOV, and so is an old QuickTime file that starts with a moov, mdat or free atom', async () => {
    expect(await sniffVideoContainer(ftyp('qt  '))).toEqual({ container: 'mov', demuxer: 'mov' });
    for (const atom of ['moov', 'mdat', 'free']) {
      expect(await sniffVideoContainer(Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from(atom)]))).toEqual({ container: 'mov', demuxer: 'mov' });
    }
  });

  it('RIFF AVI is AVI; WebM is read by the matroska demuxer', async () => {
    expect(await sniffVideoContainer(riff('AVI '))).toEqual({ container: 'avi', demuxer: 'avi' });
    expect(await sniffVideoContainer(ebml('webm'))).toEqual({ container: 'webm', demuxer: 'matroska' });
  });

  it.each([
    ['3gp4', 'a 3GP video'],
    ['3g2a', 'a 3GP video'],
    ['heic', 'a HEIF/AVIF image'],
    ['avif', 'a HEIF/AVIF image'],
    ['dash', 'an ISO media file of brand "dash"'],
    ['f4v ', 'an ISO media file of brand "f4v"'],
    ['crx ', 'an ISO media file of brand "crx"'],
  ])('ftyp brand "%s" is refused as %s', async (brand, refused) => {
    expect(await sniffVideoContainer(ftyp(brand))).toEqual({ refused });
  });

  it('refuses the containers the README does not promise, by name', async () => {
    const ts = Buffer.alloc(376);
    ts[0] = 0x47;
    ts[188] = 0x47;
    expect(await sniffVideoContainer(ts)).toEqual({ refused: 'an MPEG-TS stream' });
    expect(await sniffVideoContainer(Buffer.from('FLV\x01\x05\0\0\0\x09', 'latin1'))).toEqual({ refused: 'an FLV video' });
    // The first page of an Ogg stream: header, one segment, the codec's identification packet.
    const ogg = Buffer.concat([Buffer.from('OggS\0\x02', 'latin1'), Buffer.alloc(20), Buffer.from([1, 30]), Buffer.from('\x01vorbis', 'latin1'), Buffer.alloc(23)]);
    expect(await sniffVideoContainer(ogg)).toEqual({ refused: 'an Ogg file' });
    expect(await sniffVideoContainer(Buffer.from([0, 0, 1, 0xba, 0x44]))).toEqual({ refused: 'an MPEG-PS stream' });
    expect(await sniffVideoContainer(ebml('matroska'))).toEqual({ refused: 'a Matroska (MKV) video' });
  });

  it('names what other files look like', async () => {
    expect(await sniffVideoContainer(Buffer.alloc(0))).toEqual({ refused: 'an empty file' });
    expect(await sniffVideoContainer(riff('WAVE'))).toEqual({ refused: 'WAV audio' });
    expect(await sniffVideoContainer(riff('WEBP'))).toEqual({ refused: 'a WebP image' });
    expect(await sniffVideoContainer(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toEqual({ refused: 'a JPEG image' });
    expect(await sniffVideoContainer(Buffer.from('GIF89a......'))).toEqual({ refused: 'a GIF image' });
    expect(await sniffVideoContainer(Buffer.from('#EXTM3U\n#EXT-X-VERSION:3\n'))).toEqual({ refused: 'a file of unrecognised type' });
  });
});

describe('pinnedInput: how an untrusted file is opened', () => {
  it('names the demuxer and allows only the file protocol, before the input', () => {
    expect(pinnedInput('/tmp/up load.mp4', 'mov')).toEqual(['-f', 'mov', '-protocol_whitelist', 'file', '-i', fileArg('/tmp/up load.mp4')]);
  });
});
