import { levelChain, parseEbur128Summary } from '#functions/render/sound/loudness';

const SUMMARY = `[Parsed_ebur128_0 @ 0x1] Summary:

  Integrated loudness:
    I:         -22.0 LUFS
    Threshold: -32.3 LUFS

  Loudness range:
    LRA:         5.3 LU
    Threshold:  -42.4 LUFS
    LRA low:    -25.2 LUFS
    LRA high:   -19.9 LUFS

  True peak:
    Peak:       -1.2 dBFS`;

describe('parseEbur128Summary', () => {
  test('reads integrated loudness, range and true peak', () => {
    expect(parseEbur128Summary(`noise before\n${SUMMARY}`)).toEqual({ integratedLufs: -22, rangeLu: 5.3, truePeakDbtp: -1.2 });
  });

  test('silence (everything gated out) has no level and no peak', () => {
    const silent = SUMMARY.replace('-22.0 LUFS', '-70.0 LUFS').replace('-1.2 dBFS', '-inf dBFS');
    expect(parseEbur128Summary(silent)).toEqual({ integratedLufs: null, rangeLu: 5.3, truePeakDbtp: null });
  });

  test('no summary is an error, not a guess', () => {
    expect(() => parseEbur128Summary('ffmpeg said nothing useful')).toThrow(/no loudness summary/);
  });
});

describe('levelChain', () => {
  const target = { integratedLufs: -14, truePeakDbtp: -1.5 };

  test('one gain when the peaks stay under the ceiling', () => {
    expect(levelChain({ integratedLufs: -20, rangeLu: 3, truePeakDbtp: -12 }, target)).toBe('volume=6.00dB:precision=float');
    expect(levelChain({ integratedLufs: -8, rangeLu: 3, truePeakDbtp: -0.3 }, target)).toBe('volume=-6.00dB:precision=float');
  });

  test('a gain that would push the peaks over adds a 4x-oversampled limiter at the ceiling', () => {
    expect(levelChain({ integratedLufs: -30, rangeLu: 3, truePeakDbtp: -10 }, target)).toBe(
      'volume=16.00dB:precision=float,aresample=192000,alimiter=limit=0.8414:attack=1:release=60:level=disabled,aresample=48000',
    );
  });

  test('silence stays silence, and a near-silent source is raised 30 dB at most', () => {
    expect(levelChain({ integratedLufs: null, rangeLu: 0, truePeakDbtp: null }, target)).toBe('anull');
    expect(levelChain({ integratedLufs: -60, rangeLu: 0, truePeakDbtp: -50 }, target)).toBe('volume=30.00dB:precision=float');
  });
});
