import * as path from 'node:path';
import { parseProbeOutput, probeMedia, streamRotation, type MediaProbe } from '#functions/render/ffmpeg/probe';
import { makeFixture } from '#test-support/media-fixtures';

async function probed(kind: Parameters<typeof makeFixture>[0]): Promise<MediaProbe> {
  const result = await probeMedia(await makeFixture(kind));
  if (!result.ok) throw new Error(`probe of ${kind} failed: ${result.detail}`);
  return result.media;
}

describe('probeMedia', () => {
  it('describes an MP4: container, brand, duration, video and audio streams', async () => {
    const media = await probed('vertical-mp4');
    expect(media.formatNames).toContain('mp4');
    expect(media.majorBrand).toBe('isom');
    expect(media.durationS).toBeCloseTo(2, 2);
    expect(media.video).toMatchObject({
      codec: 'h264',
      width: 720,
      height: 1280,
      rotation: 0,
      displayWidth: 720,
      displayHeight: 1280,
      fps: 30,
    });
    expect(media.audio).toMatchObject({ codec: 'aac', sampleRate: 44100, channels: 1 });
  });

  it('reports the display size after rotation metadata', async () => {
    const media = await probed('rotated-mp4');
    expect(media.video).toMatchObject({ width: 1280, height: 720, displayWidth: 720, displayHeight: 1280 });
    expect([90, 270]).toContain(media.video?.rotation);
  });

  it('tells MOV and AVI apart from MP4', async () => {
    expect((await probed('vertical-mov')).majorBrand).toBe('qt  ');
    const avi = await probed('vertical-avi');
    expect(avi.formatNames).toEqual(['avi']);
    expect(avi.video).toMatchObject({ codec: 'mpeg4', width: 360, height: 640 });
    expect(avi.audio).toMatchObject({ codec: 'mp3' });
  });

  it('gives null for a stream that is absent', async () => {
    expect((await probed('vertical-mp4-silent')).audio).toBeNull();
    expect((await probed('audio-only-m4a')).video).toBeNull();
  });

  it('returns a typed failure, not an exception, for a file ffprobe cannot read', async () => {
    const result = await probeMedia(await makeFixture('truncated-mp4'));
    expect(result).toMatchObject({ ok: false, reason: 'unreadable' });
    if (!result.ok) expect(result.detail).toMatch(/moov atom not found/);
  });

  it('returns a typed failure for a file that does not exist', async () => {
    const result = await probeMedia(path.join(__dirname, 'no-such-file.mp4'));
    expect(result).toMatchObject({ ok: false, reason: 'unreadable' });
  });
});

describe('reading ffprobe output', () => {
  it('reads rotation from the clockwise rotate tag of older tools', () => {
    expect(streamRotation({ tags: { rotate: '90' } })).toBe(90);
    expect(streamRotation({ tags: { rotate: '-90' } })).toBe(270);
  });

  it('reads rotation from the display matrix, which turns counter-clockwise', () => {
    const matrix = (rotation: number) => ({ side_data_list: [{ side_data_type: 'Display Matrix', rotation }] });
    expect(streamRotation(matrix(-90))).toBe(90);
    expect(streamRotation(matrix(90))).toBe(270);
    expect(streamRotation(matrix(180))).toBe(180);
    expect(streamRotation(matrix(-180))).toBe(180);
    expect(streamRotation({})).toBe(0);
  });

  it('does not take cover art for the video stream', () => {
    const media = parseProbeOutput({
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '12.5', tags: { major_brand: 'M4A ' } },
      streams: [
        { index: 0, codec_type: 'audio', codec_name: 'aac', sample_rate: '44100', channels: 2 },
        { index: 1, codec_type: 'video', codec_name: 'mjpeg', width: 600, height: 600, disposition: { attached_pic: 1 } },
      ],
    });
    expect(media.video).toBeNull();
    expect(media.audio).toMatchObject({ index: 0, sampleRate: 44100, channels: 2 });
    expect(media.durationS).toBe(12.5);
  });

  it('treats "N/A" and 0/0 frame rates as unknown', () => {
    const media = parseProbeOutput({
      format: { format_name: 'avi', duration: 'N/A' },
      streams: [{ index: 0, codec_type: 'video', codec_name: 'mpeg4', width: 320, height: 240, avg_frame_rate: '0/0', r_frame_rate: '0/0' }],
    });
    expect(media.durationS).toBeNull();
    expect(media.video?.fps).toBeNull();
  });
});
