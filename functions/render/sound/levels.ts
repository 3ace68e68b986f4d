/**
 * The levels sounds are prepared at and mixed to. Each part (a levelled demo, a bed, an effect) is
 * brought to the platforms' −14 LUFS on its own; the mix sets the balance between parts; the finished
 * sound is measured as it is encoded and corrected if it missed. The true-peak ceiling sits 1 dB
 * under the promise (−1 dBTP on the final file): AAC's own encode lifts true peaks by up to about
 * a dB on sharp transients. The finished files themselves are measured by the tests and the bench.
 */
import { LOUDNESS_TARGET } from '#domain/sound';
import type { LevelTarget } from './loudness';

export const SOUND_LEVEL: LevelTarget = {
  integratedLufs: LOUDNESS_TARGET.integratedLufs,
  truePeakDbtp: LOUDNESS_TARGET.truePeakDbtp - 1,
};
