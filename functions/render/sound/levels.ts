/**
 * The levels sounds are prepared at and mixed to. Each part (a levelled demo, a bed, an effect) is
 * brought to the platforms' −14 LUFS on its own; the mix sets the balance between parts; the finished
 * video is measured once more and brought to the target exactly. The ceiling sits 0.5 dB under the
 * promise: AAC's own encode lifts true peaks by a few tenths of a dB.
 */
import { LOUDNESS_TARGET } from '#domain/sound';
import type { LevelTarget } from './loudness';

export const SOUND_LEVEL: LevelTarget = {
  integratedLufs: LOUDNESS_TARGET.integratedLufs,
  truePeakDbtp: LOUDNESS_TARGET.truePeakDbtp - 0.5,
};
