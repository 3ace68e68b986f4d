/**
 * The canonical encoding as arguments and as a judgement: what ffmpeg is told, and what a probed file
 * is told it lacks before it can be joined by stream copy.
 */
import { CANONICAL, canonicalEncodeArgs, canonicalMismatches, type MediaProbe } from '#render';

const canonicalProbe = (): MediaProbe => ({
  formatNames: ['mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2'],
  majorBrand: 'isom',
  startS: 0,
  durationS: 4,
  sizeBytes: 1_000_000,
  video: {
    index: 0,
    codec: CANONICAL.video.codec,
    profile: CANONICAL.video.probedProfile,
    pixFmt: CANONICAL.video.pixFmt,
    width: CANONICAL.width,
    height: CANONICAL.height,
    rotation: 0,
    displayWidth: CANONICAL.width,
    displayHeight: CANONICAL.height,
    fps: CANONICAL.fps,
    timeBase: `1/${CANONICAL.video.timescale}`,
    startS: 0,
    durationS: 4,
    frameCount: 4 * CANONICAL.fps,
  },
  audio: { index: 1, codec: CANONICAL.audio.codec, sampleRate: CANONICAL.audio.sampleRate, channels: CANONICAL.audio.channels, startS: 0, durationS: 4 },
});

describe('canonicalEncodeArgs', () => {
  test('names each option once, as a flag followed by its value, ending with the MP4 muxer', () => {
    const args = canonicalEncodeArgs();
    expect(args.length % 2).toBe(0);
    const flags = args.filter((_, i) => i % 2 === 0);
    expect(flags.every((flag) => flag.startsWith('-'))).toBe(true);
    expect(new Set(flags).size).toBe(flags.length);
    expect(args.slice(-4)).toEqual(['-movflags', '+faststart', '-f', 'mp4']);
    expect(args.slice(args.indexOf('-crf'), args.indexOf('-crf') + 2)).toEqual(['-crf', String(CANONICAL.video.crf)]);
    expect(args).not.toContain('-x264-params');
  });

  test('frames made on the fly get the rendered preset and its x264 parameters right after it', () => {
    const args = canonicalEncodeArgs({ speed: 'rendered' });
    const preset = args.indexOf('-preset');
    expect(args.slice(preset, preset + 4)).toEqual(['-preset', CANONICAL.video.renderedPreset, '-x264-params', CANONICAL.video.renderedX264Params]);
  });
});

describe('canonicalMismatches', () => {
  test('a canonical file has none', () => {
    expect(canonicalMismatches(canonicalProbe())).toEqual([]);
  });

  test('names every difference, container first, then video (frame rate last), then audio', () => {
    const probe = canonicalProbe();
    probe.formatNames = ['avi'];
    probe.video = { ...probe.video!, profile: 'Main', rotation: 90, fps: 29.97 };
    probe.audio = { ...probe.audio!, channels: 1 };
    expect(canonicalMismatches(probe)).toEqual([
      'container is avi, expected mp4',
      `video profile is Main, expected ${CANONICAL.video.probedProfile}`,
      'rotation is 90, expected 0',
      `frame rate is 29.97, expected ${CANONICAL.fps}`,
      `audio channels is 1, expected ${CANONICAL.audio.channels}`,
    ]);
  });

  test('a missing stream is one problem, not one per fact', () => {
    const probe = { ...canonicalProbe(), formatNames: [], video: null, audio: null };
    expect(canonicalMismatches(probe)).toEqual(['container is unknown, expected mp4', 'no video stream', 'no audio stream']);
  });
});
