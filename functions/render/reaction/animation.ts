/**
 * The local engine's animation vocabulary, shared by every renderer (illustrated avatars, photo
 * avatars) and every source of motion (an emotion's expression curve, a reference clip's landmarks).
 * A reaction is a list of frames; each frame says how the face looks and where the camera is.
 */

/** How the face looks in one frame. 0 is neutral; 1 is the strongest the rig draws. */
export interface FacePose {
  /** Jaw drop / mouth opening. */
  mouthOpen: number;
  /** Corners of the mouth up (positive) or down (negative), -1..1. */
  smile: number;
  /** Eyebrows raised (positive) or frowning (negative), -1..1. */
  browRaise: number;
  /** Eye openness: 0 closed, 1 normal, up to 1.5 wide. */
  eyeOpen: number;
  /** Head rotation in degrees: yaw (left/right), pitch (up/down), roll (tilt). */
  headYaw: number;
  headPitch: number;
  headRoll: number;
}

/** Where the virtual camera is in one frame, applied to the whole picture. */
export interface CameraPose {
  /** 1 = framed as rest; > 1 punches in. */
  zoom: number;
  /** Offset of the frame centre in output pixels. */
  offsetX: number;
  offsetY: number;
  /** Degrees. */
  rotation: number;
}

export interface ReactionFrame {
  face: FacePose;
  camera: CameraPose;
  /**
   * What the frame means, when it was made from an emotion (absent for motion taken from a reference
   * clip). Renderers that can draw emotion-specific details (heart eyes, tears, a burst behind the
   * head) use it; the others animate from the numbers above alone.
   */
  expression?: ExpressionHint;
  /**
   * The mouth shape of a spoken line in this frame (./voice), absent when nobody speaks. Renderers
   * that draw mouth shapes use it over the expression's mouth; the others follow `face.mouthOpen`,
   * which the speech sets too.
   */
  viseme?: Viseme;
}

/** Mouth shapes of speech: lips closed (m/b/p), teeth on lip (f/v, s), a little, wide (e/i), round (o/u/w), open (a). */
export type Viseme = 'rest' | 'closed' | 'teeth' | 'mid' | 'wide' | 'round' | 'open';

export interface ExpressionHint {
  emotion: Emotion;
  /** 0 = not showing yet, 1 = the emotion at full strength. */
  intensity: number;
  /**
   * A second beat of the same emotion, where the curve has one: dizzy eyes after a mind-blown peak,
   * an eye roll in a skeptical hold, a retch in a disgusted one. Renderers without one ignore it.
   */
  alternate?: boolean;
}

export const NEUTRAL_FACE: FacePose = { mouthOpen: 0, smile: 0, browRaise: 0, eyeOpen: 1, headYaw: 0, headPitch: 0, headRoll: 0 };
export const REST_CAMERA: CameraPose = { zoom: 1, offsetX: 0, offsetY: 0, rotation: 0 };

/** The emotions a prompt can ask for. */
export type Emotion = 'shocked' | 'laughing' | 'excited' | 'crying' | 'disgusted' | 'mind_blown' | 'skeptical' | 'in_love' | 'angry' | 'happy';
