/**
 * The rig of an illustrated avatar: the DiceBear `avataaars` options that describe the person
 * (hair, skin, beard, glasses, clothes, background), every trait resolved to exactly one value, so
 * the same picture can be drawn again with any expression. It is stored with the avatar
 * (`AvatarRef.rig`) and read back from the database, hence the validator.
 *
 * Expression parts (eyes, eyebrows, mouth) are not in the rig: a reaction picks them per frame.
 */

export const TOPS = [
  'hat', 'hijab', 'turban', 'winterHat1', 'winterHat02', 'winterHat03', 'winterHat04', 'bob', 'bun', 'curly',
  'curvy', 'dreads', 'frida', 'fro', 'froBand', 'longButNotTooLong', 'miaWallace', 'shavedSides', 'straight02',
  'straight01', 'straightAndStrand', 'dreads01', 'dreads02', 'frizzle', 'shaggy', 'shaggyMullet', 'shortCurly',
  'shortFlat', 'shortRound', 'shortWaved', 'sides', 'theCaesar', 'theCaesarAndSidePart', 'bigHair',
] as const;
export const CLOTHING = [
  'blazerAndShirt', 'blazerAndSweater', 'collarAndSweater', 'graphicShirt', 'hoodie', 'overall', 'shirtCrewNeck',
  'shirtScoopNeck', 'shirtVNeck',
] as const;
const CLOTHING_GRAPHICS = ['bat', 'bear', 'cumbia', 'deer', 'diamond', 'hola', 'pizza', 'resist', 'skull', 'skullOutline'] as const;
export const FACIAL_HAIR = ['beardLight', 'beardMajestic', 'beardMedium', 'moustacheFancy', 'moustacheMagnum'] as const;
export const ACCESSORIES = ['kurt', 'prescription01', 'prescription02', 'round', 'sunglasses', 'wayfarers', 'eyepatch'] as const;

export type Top = (typeof TOPS)[number];
export type Clothing = (typeof CLOTHING)[number];
export type ClothingGraphic = (typeof CLOTHING_GRAPHICS)[number];
export type FacialHair = (typeof FACIAL_HAIR)[number];
export type Accessory = (typeof ACCESSORIES)[number];
export type Eyes =
  | 'closed'
  | 'cry'
  | 'default'
  | 'eyeRoll'
  | 'happy'
  | 'hearts'
  | 'side'
  | 'squint'
  | 'surprised'
  | 'winkWacky'
  | 'wink'
  | 'xDizzy';
export type Eyebrows =
  | 'angryNatural'
  | 'defaultNatural'
  | 'flatNatural'
  | 'frownNatural'
  | 'raisedExcitedNatural'
  | 'sadConcernedNatural'
  | 'unibrowNatural'
  | 'upDownNatural'
  | 'angry'
  | 'default'
  | 'raisedExcited'
  | 'sadConcerned'
  | 'upDown';
export type Mouth =
  | 'concerned'
  | 'default'
  | 'disbelief'
  | 'eating'
  | 'grimace'
  | 'sad'
  | 'screamOpen'
  | 'serious'
  | 'smile'
  | 'tongue'
  | 'twinkle'
  | 'vomit';

/** Skin tones a person can have: DiceBear's list without its yellow and orange cartoon tones. */
export const SKIN_TONES = {
  light: 'ffdbb4',
  lightMedium: 'edb98a',
  medium: 'd08b5b',
  brown: 'ae5d29',
  dark: '614335',
} as const;

/** The face parts a frame shows. */
export interface ExpressionParts {
  eyes: Eyes;
  eyebrows: Eyebrows;
  mouth: Mouth;
}

/** DiceBear avataaars options with one value per trait (arrays because that is DiceBear's shape). */
export interface AvataaarsLook {
  seed: string;
  style: ['default'];
  top: [Top] | [];
  topProbability: 0 | 100;
  hairColor: [string];
  hatColor: [string];
  skinColor: [string];
  facialHair: [FacialHair] | [];
  facialHairProbability: 0 | 100;
  facialHairColor: [string];
  accessories: [Accessory] | [];
  accessoriesProbability: 0 | 100;
  accessoriesColor: [string];
  clothing: [Clothing];
  clothesColor: [string];
  clothingGraphic: [ClothingGraphic];
  backgroundColor: [string];
}

/**
 * How the person looks in their portrait when the prompt says so ("a smiling nurse", "a grumpy
 * grandpa"); without one the portrait smiles lightly. Reactions pick their own parts per frame.
 */
export const DEMEANOURS = {
  smiling: { eyes: 'happy', eyebrows: ['defaultNatural', 'default'], mouth: 'smile' },
  serious: { eyes: 'default', eyebrows: ['flatNatural', 'default'], mouth: 'serious' },
  grumpy: { eyes: 'squint', eyebrows: ['angryNatural', 'angry'], mouth: 'concerned' },
  sad: { eyes: 'default', eyebrows: ['sadConcernedNatural', 'sadConcerned'], mouth: 'sad' },
  surprised: { eyes: 'surprised', eyebrows: ['raisedExcitedNatural', 'raisedExcited'], mouth: 'disbelief' },
  skeptical: { eyes: 'side', eyebrows: ['upDownNatural', 'upDown'], mouth: 'serious' },
} as const satisfies Record<string, { eyes: Eyes; eyebrows: readonly [Eyebrows, Eyebrows]; mouth: Mouth }>;
export type Demeanour = keyof typeof DEMEANOURS;

export interface IllustratedRig {
  kind: 'illustrated';
  engine: 'local';
  style: 'avataaars';
  version: 1;
  /** Pass to DiceBear's createAvatar with expression parts added. */
  options: AvataaarsLook;
  /** Which of avataaars' two eyebrow drawings this person has (the expression picks the shape). */
  eyebrowStyle: 'natural' | 'classic';
  /** The portrait's expression, when the prompt names one (rigs stored before it have none). */
  demeanour?: Demeanour;
}

const HEX = /^[0-9a-f]{6}$/;

const oneOf = <T extends string>(allowed: readonly T[], value: unknown): value is [T] =>
  Array.isArray(value) && value.length === 1 && allowed.includes(value[0] as T);
const hexList = (value: unknown): value is [string] => Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' && HEX.test(value[0]);
const optional = <T extends string>(allowed: readonly T[], list: unknown, probability: unknown) =>
  (probability === 0 && Array.isArray(list) && list.length === 0) || (probability === 100 && oneOf(allowed, list));

/**
 * Whether a stored value is a rig this code can draw. Everything is checked against DiceBear's own
 * value lists: the rig comes back from storage, and nothing unknown should reach the SVG.
 */
export function isIllustratedRig(value: unknown): value is IllustratedRig {
  if (!value || typeof value !== 'object') return false;
  const rig = value as Partial<IllustratedRig>;
  if (rig.kind !== 'illustrated' || rig.style !== 'avataaars' || rig.version !== 1) return false;
  if (rig.eyebrowStyle !== 'natural' && rig.eyebrowStyle !== 'classic') return false;
  if (rig.demeanour !== undefined && !Object.hasOwn(DEMEANOURS, rig.demeanour)) return false;
  const o = rig.options as Partial<AvataaarsLook> | undefined;
  if (!o || typeof o !== 'object' || typeof o.seed !== 'string' || o.seed.length > 200) return false;
  return (
    oneOf(['default'], o.style) &&
    optional(TOPS, o.top, o.topProbability) &&
    optional(FACIAL_HAIR, o.facialHair, o.facialHairProbability) &&
    optional(ACCESSORIES, o.accessories, o.accessoriesProbability) &&
    oneOf(CLOTHING, o.clothing) &&
    oneOf(CLOTHING_GRAPHICS, o.clothingGraphic) &&
    [o.hairColor, o.hatColor, o.skinColor, o.facialHairColor, o.accessoriesColor, o.clothesColor, o.backgroundColor].every(hexList)
  );
}

/** The options for DiceBear's createAvatar: the look plus the face parts of one expression. */
export function avataaarsOptions(rig: IllustratedRig, parts: ExpressionParts, background: boolean): Record<string, unknown> {
  return {
    ...rig.options,
    eyes: [parts.eyes],
    eyebrows: [parts.eyebrows],
    mouth: [parts.mouth],
    nose: ['default'],
    backgroundColor: background ? rig.options.backgroundColor : [],
  };
}

/** The calm face an avatar is shown with, and that a reaction starts from. */
export function restingParts(rig: IllustratedRig): ExpressionParts {
  const natural = rig.eyebrowStyle === 'natural';
  if (rig.demeanour) {
    const look = DEMEANOURS[rig.demeanour];
    return { eyes: look.eyes, eyebrows: look.eyebrows[natural ? 0 : 1], mouth: look.mouth };
  }
  return { eyes: 'default', eyebrows: natural ? 'defaultNatural' : 'default', mouth: 'smile' };
}
