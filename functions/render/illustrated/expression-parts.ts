/**
 * FacePose → the avataaars face parts that draw it. The pose numbers decide on their own (so motion
 * from a reference clip animates an illustrated avatar too); an emotion hint, when the frame has one
 * and the emotion is showing, swaps in the parts only that emotion has: heart eyes, tears, dizzy
 * eyes, a retch, a raised eyebrow.
 */
import type { ExpressionHint, FacePose, Viseme } from '../reaction/animation';
import type { ExpressionParts, Eyebrows, Eyes, IllustratedRig, Mouth } from './illustrated-rig';

type BrowShape = 'default' | 'raised' | 'angry' | 'sad' | 'upDown' | 'flat' | 'frown';

const BROWS: Record<IllustratedRig['eyebrowStyle'], Record<BrowShape, Eyebrows>> = {
  natural: {
    default: 'defaultNatural', raised: 'raisedExcitedNatural', angry: 'angryNatural', sad: 'sadConcernedNatural',
    upDown: 'upDownNatural', flat: 'flatNatural', frown: 'frownNatural',
  },
  classic: { default: 'default', raised: 'raisedExcited', angry: 'angry', sad: 'sadConcerned', upDown: 'upDown', flat: 'default', frown: 'angry' },
};

/** Below this the eyes draw closed: a blink reads only if it is a clean swap. */
const EYES_CLOSED_BELOW = 0.3;
/** Hint parts appear once the emotion is this far in (before that the numbers alone decide). */
const HINT_FROM = 0.45;

function eyesFromPose(face: FacePose): Eyes {
  if (face.eyeOpen < EYES_CLOSED_BELOW) return 'closed';
  if (face.eyeOpen < 0.55 && face.smile > 0.45) return 'happy';
  if (face.eyeOpen > 1.2) return 'surprised';
  if (face.eyeOpen < 0.72) return 'squint';
  return 'default';
}

function browFromPose(face: FacePose): BrowShape {
  if (face.browRaise > 0.45) return 'raised';
  if (face.browRaise < -0.45) return 'angry';
  if (face.browRaise < -0.2 && face.smile < -0.4) return 'sad';
  return 'default';
}

function mouthFromPose(face: FacePose): Mouth {
  const { mouthOpen: open, smile } = face;
  if (open > 0.75) return 'screamOpen';
  if (open > 0.45) return smile > 0.3 ? 'smile' : smile < -0.3 ? 'concerned' : 'disbelief';
  if (open > 0.2) return smile > 0.3 ? 'smile' : smile < -0.3 ? 'concerned' : 'disbelief';
  if (smile > 0.55) return 'twinkle';
  if (smile > 0.1) return 'default';
  if (smile < -0.3) return 'sad';
  return 'serious';
}

/** The mouth that draws a speech shape (ReactionFrame.viseme), over whatever the expression's mouth was. */
function mouthForViseme(viseme: Viseme, face: FacePose): Mouth {
  switch (viseme) {
    case 'rest':
    case 'closed':
      return face.smile > 0.3 ? 'default' : face.smile < -0.3 ? 'sad' : 'serious';
    case 'teeth':
      return 'grimace';
    case 'mid':
    case 'wide':
      return 'smile';
    case 'round':
      return 'disbelief';
    case 'open':
      return 'screamOpen';
  }
}

export function partsForFrame(
  face: FacePose,
  hint: ExpressionHint | undefined,
  eyebrowStyle: IllustratedRig['eyebrowStyle'],
  viseme?: Viseme,
): ExpressionParts {
  let eyes = eyesFromPose(face);
  let brow = browFromPose(face);
  let mouth = mouthFromPose(face);
  const blinking = eyes === 'closed';

  if (hint && hint.intensity >= HINT_FROM) {
    switch (hint.emotion) {
      case 'shocked':
        if (!blinking) eyes = 'surprised';
        brow = 'raised';
        break;
      case 'mind_blown':
        if (hint.alternate) eyes = 'xDizzy';
        else if (!blinking) eyes = 'surprised';
        brow = 'raised';
        break;
      case 'laughing':
        eyes = 'happy';
        if (mouth === 'disbelief' || mouth === 'concerned') mouth = 'smile';
        break;
      case 'excited':
        if (!blinking) eyes = face.eyeOpen > 1.1 ? 'surprised' : 'happy';
        brow = 'raised';
        if (mouth === 'disbelief' || mouth === 'concerned') mouth = 'smile';
        break;
      case 'crying':
        if (!blinking) eyes = 'cry';
        brow = 'sad';
        mouth = face.mouthOpen > 0.22 ? 'concerned' : 'sad';
        break;
      case 'disgusted':
        if (!blinking) eyes = 'squint';
        brow = eyebrowStyle === 'natural' ? 'frown' : 'angry';
        mouth = hint.alternate ? 'vomit' : 'grimace';
        break;
      case 'skeptical':
        if (!blinking) eyes = hint.alternate ? 'eyeRoll' : 'side';
        brow = 'upDown';
        mouth = face.smile < -0.1 ? 'serious' : 'default';
        break;
      case 'in_love':
        if (!blinking) eyes = 'hearts';
        brow = 'raised';
        if (mouth === 'default' || mouth === 'serious') mouth = 'twinkle';
        break;
      case 'angry':
        if (!blinking) eyes = 'squint';
        brow = 'angry';
        mouth = face.mouthOpen > 0.6 ? 'screamOpen' : 'grimace';
        break;
      case 'happy':
        if (!blinking && face.smile > 0.7) eyes = 'happy';
        if (mouth === 'disbelief' || mouth === 'concerned') mouth = 'smile';
        break;
    }
  }
  if (viseme) mouth = mouthForViseme(viseme, face);
  return { eyes, eyebrows: BROWS[eyebrowStyle][brow], mouth };
}

export const partsKey = (p: ExpressionParts) => `${p.eyes}|${p.eyebrows}|${p.mouth}`;
