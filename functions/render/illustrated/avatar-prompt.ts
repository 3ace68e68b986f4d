/**
 * Prompt words → an illustrated avatar's look. Plain keyword reading, deterministic: what the prompt
 * names (age, hair, colours, skin tone, glasses, beard, clothes, background, expression) is honoured;
 * everything it does not name is drawn from the seed, one independent stream per trait
 * (docs/engines.md lists the words).
 *
 * The API layer refuses empty, huge or emoji-only prompts; here any string is safe (it may just
 * name nothing, and then the seed decides everything).
 */
import type { Accessory, AvataaarsLook, Clothing, ClothingGraphic, Demeanour, FacialHair, IllustratedRig, Top } from './illustrated-rig';
import { SKIN_TONES } from './illustrated-rig';
import { streamFor, type Random } from '../reaction/seeded-random';
const { max, min } = Math;

/** Only the start of a long prompt is read: a description of a person fits in far less. */
const MAX_PROMPT_CHARS = 2000;

/** Words of the prompt, lower case, split on anything that is not a letter, digit or apostrophe. */
export function promptWords(prompt: string): string[] {
  return prompt
    .slice(0, MAX_PROMPT_CHARS)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** A phrase of one or more words found in the prompt, e.g. `has(words, 'round glasses')`. */
function findPhrase(words: readonly string[], phrase: string): number {
  const parts = phrase.split(' ');
  outer: for (let i = 0; i + parts.length <= words.length; i++) {
    for (let j = 0; j < parts.length; j++) if (words[i + j] !== parts[j]) continue outer;
    return i;
  }
  return -1;
}

const hasAny = (words: readonly string[], phrases: readonly string[]) => phrases.some((p) => findPhrase(words, p) >= 0);

// ---------------------------------------------------------------------------------------------
// Colours: a colour word belongs to the thing named just after it ("red hoodie", "blonde hair"),
// or just before it ("hair dyed pink", "background in blue").

type Target = 'hair' | 'beard' | 'clothes' | 'hat' | 'glasses' | 'background' | 'skin';

const TARGET_NOUNS: Record<string, Target> = {
  hair: 'hair', haired: 'hair', hairstyle: 'hair', locks: 'hair', curls: 'hair', bun: 'hair', ponytail: 'hair', afro: 'hair',
  beard: 'beard', bearded: 'beard', moustache: 'beard', mustache: 'beard', stubble: 'beard', goatee: 'beard',
  shirt: 'clothes', tshirt: 'clothes', tee: 'clothes', hoodie: 'clothes', sweater: 'clothes', jumper: 'clothes', jacket: 'clothes',
  blazer: 'clothes', suit: 'clothes', overalls: 'clothes', overall: 'clothes', dungarees: 'clothes', top: 'clothes',
  dress: 'clothes', sweatshirt: 'clothes', cardigan: 'clothes', outfit: 'clothes', clothes: 'clothes', shirted: 'clothes',
  neck: 'clothes', vneck: 'clothes', blouse: 'clothes', polo: 'clothes', coat: 'clothes', vest: 'clothes', jersey: 'clothes',
  uniform: 'clothes', hoody: 'clothes', pullover: 'clothes', knit: 'clothes', tank: 'clothes',
  hat: 'hat', beanie: 'hat', cap: 'hat', hijab: 'hat', turban: 'hat', headscarf: 'hat',
  glasses: 'glasses', sunglasses: 'glasses', shades: 'glasses', frames: 'glasses', spectacles: 'glasses',
  background: 'background', backdrop: 'background', bg: 'background',
  skin: 'skin', skinned: 'skin', complexion: 'skin',
};

/** A colour word (or two-word name) and its value for each kind of thing it can colour. */
interface ColourName {
  hair?: string;
  clothes?: string;
  background?: string;
  skin?: string;
}

const COLOURS: Record<string, ColourName> = {
  black: { hair: '2c1b18', clothes: '262e33', background: '3b4a63', skin: SKIN_TONES.dark },
  'jet black': { hair: '2c1b18', clothes: '262e33' },
  'dark brown': { hair: '4a312c', clothes: '3c4f5c', skin: SKIN_TONES.dark },
  brown: { hair: '724133', clothes: '724133', background: 'f2dfc9', skin: SKIN_TONES.brown },
  brunette: { hair: '724133' },
  chestnut: { hair: 'a55728' },
  auburn: { hair: 'a55728' },
  'light brown': { hair: 'b58143', skin: SKIN_TONES.medium },
  'dirty blonde': { hair: 'b58143' },
  'dark blonde': { hair: 'b58143' },
  blonde: { hair: 'd6b370' },
  blond: { hair: 'd6b370' },
  redhead: { hair: 'c93305' },
  redheaded: { hair: 'c93305' },
  golden: { hair: 'd6b370', clothes: 'ffffb1', background: 'fff0b3' },
  gold: { hair: 'd6b370', clothes: 'ffffb1', background: 'fff0b3' },
  platinum: { hair: 'ecdcbf' },
  red: { hair: 'c93305', clothes: 'ff5c5c', background: 'ffc9c9' },
  ginger: { hair: 'c93305' },
  copper: { hair: 'c93305' },
  orange: { hair: 'c93305', clothes: 'ff5c5c', background: 'ffdfbf' },
  grey: { hair: 'e8e1e1', clothes: '929598', background: 'dde3ea' },
  gray: { hair: 'e8e1e1', clothes: '929598', background: 'dde3ea' },
  silver: { hair: 'e8e1e1', clothes: 'e6e6e6', background: 'dde3ea' },
  white: { hair: 'e8e1e1', clothes: 'ffffff', background: 'eef1f5', skin: SKIN_TONES.light },
  'light grey': { clothes: 'e6e6e6', background: 'e6eaef' },
  'light gray': { clothes: 'e6e6e6', background: 'e6eaef' },
  'dark grey': { clothes: '3c4f5c', background: '3b4a63' },
  'dark gray': { clothes: '3c4f5c', background: '3b4a63' },
  charcoal: { clothes: '3c4f5c' },
  pink: { hair: 'f59797', clothes: 'ffafb9', background: 'ffd5dc' },
  'hot pink': { hair: 'f59797', clothes: 'ff488e', background: 'ffc2d9' },
  magenta: { clothes: 'ff488e', background: 'f7c6e6' },
  blue: { clothes: '5199e4', background: 'b6e3f4' },
  'light blue': { clothes: 'b1e2ff', background: 'cfeefa' },
  'sky blue': { clothes: '65c9ff', background: 'b6e3f4' },
  navy: { clothes: '25557c', background: 'b8c7e6' },
  'navy blue': { clothes: '25557c', background: 'b8c7e6' },
  'dark blue': { clothes: '25557c', background: 'b8c7e6' },
  cyan: { clothes: '65c9ff', background: 'bdf0f5' },
  turquoise: { clothes: '65c9ff', background: 'b5ead7' },
  teal: { clothes: '65c9ff', background: 'b5ead7' },
  green: { clothes: 'a7ffc4', background: 'c9ecd0' },
  mint: { clothes: 'a7ffc4', background: 'c9ecd0' },
  yellow: { clothes: 'ffffb1', background: 'fff0b3' },
  purple: { clothes: 'c0aede', background: 'c0aede' },
  lavender: { clothes: 'c0aede', background: 'd1d4f9' },
  violet: { clothes: 'c0aede', background: 'c0aede' },
  lilac: { clothes: 'c0aede', background: 'd1d4f9' },
  peach: { clothes: 'ffafb9', background: 'ffdfbf' },
  beige: { clothes: 'e6e6e6', background: 'f5e6cc' },
  cream: { clothes: 'ffffff', background: 'f5e6cc' },
  // Skin words.
  pale: { skin: SKIN_TONES.light },
  fair: { hair: 'd6b370', skin: SKIN_TONES.light },
  light: { hair: 'd6b370', skin: SKIN_TONES.light },
  tan: { skin: SKIN_TONES.medium },
  tanned: { skin: SKIN_TONES.medium },
  olive: { skin: SKIN_TONES.medium, clothes: 'a7ffc4' },
  medium: { skin: SKIN_TONES.lightMedium },
  dark: { hair: '2c1b18', skin: SKIN_TONES.dark },
  deep: { skin: SKIN_TONES.dark },
};

/** Person nouns after which "black", "white", "brown" mean a skin tone. */
const PERSON_NOUNS = new Set([
  'man', 'woman', 'guy', 'girl', 'boy', 'person', 'dude', 'lady', 'kid', 'teen', 'teenager', 'gentleman', 'gal',
  'men', 'women', 'people', 'grandma', 'grandpa', 'mom', 'dad', 'mother', 'father',
]);

interface ColourHit {
  target: Target;
  name: ColourName;
}

/** Colour words with the thing each one colours (at most one colour per thing: the first wins). */
function colourHits(words: readonly string[]): Map<Target, ColourName> {
  const found = new Map<Target, ColourName>();
  const add = (hit: ColourHit | null) => {
    if (hit && !found.has(hit.target)) found.set(hit.target, hit.name);
  };
  for (let i = 0; i < words.length; i++) {
    const two = i + 1 < words.length ? `${words[i]} ${words[i + 1]}` : '';
    const length = two && COLOURS[two] ? 2 : COLOURS[words[i]!] ? 1 : 0;
    if (!length) continue;
    const name = COLOURS[length === 2 ? two : words[i]!]!;
    add(targetOf(words, i, length, name));
    i += length - 1;
  }
  return found;
}

function targetOf(words: readonly string[], at: number, length: number, name: ColourName): ColourHit | null {
  const usable = (target: Target) => (target === 'beard' || target === 'hat' || target === 'glasses' ? true : name[target as keyof ColourName] !== undefined);
  // After: "blue hoodie", "red curly hair", "dark skinned". Stop at the next colour word.
  for (let j = at + length; j < min(words.length, at + length + 3); j++) {
    const word = words[j]!;
    if (COLOURS[word] && j > at + length) break;
    if (PERSON_NOUNS.has(word) && name.skin) return { target: 'skin', name };
    const target = TARGET_NOUNS[word];
    if (target && usable(target)) return { target, name };
  }
  // Before: "hair dyed pink", "a background of blue", "shirt in green".
  for (let j = at - 1; j >= max(0, at - 3); j--) {
    const target = TARGET_NOUNS[words[j]!];
    if (target && usable(target)) return { target, name };
  }
  // On its own, a hair-only word still means hair ("a blonde", "brunette woman"), a skin-only word skin ("tan surfer").
  if (name.hair && !name.clothes && !name.background) return { target: 'hair', name };
  if (name.skin && !name.hair && !name.clothes && !name.background) return { target: 'skin', name };
  return null;
}

// ---------------------------------------------------------------------------------------------
// Traits

const SHORT_HAIR: readonly Top[] = ['shortFlat', 'shortRound', 'shortWaved', 'theCaesar', 'theCaesarAndSidePart', 'sides', 'shortCurly', 'shaggy'];
const LONG_HAIR: readonly Top[] = ['longButNotTooLong', 'straight01', 'straight02', 'straightAndStrand', 'bob', 'curvy', 'bigHair', 'miaWallace'];
const ANY_HAIR: readonly Top[] = [...SHORT_HAIR, ...LONG_HAIR, 'bun', 'curly', 'fro', 'dreads01', 'frizzle'];

/** First match wins: the specific before the general ("long curly" before "long", "hat" last). */
const HAIR_RULES: ReadonlyArray<{ when: readonly string[]; tops: readonly Top[] | null; unless?: readonly string[] }> = [
  { when: ['bald', 'shaved head', 'shaven head', 'no hair', 'hairless', 'bald headed'], tops: null },
  { when: ['hijab', 'headscarf', 'head scarf'], tops: ['hijab'] },
  { when: ['turban'], tops: ['turban'] },
  { when: ['beanie', 'winter hat', 'bobble hat', 'toque', 'woolly hat', 'knit hat'], tops: ['winterHat1', 'winterHat02', 'winterHat03', 'winterHat04'] },
  { when: ['afro', 'fro'], tops: ['fro'] },
  { when: ['dreadlocks', 'dreads', 'locs', 'dreadlock'], tops: ['dreads', 'dreads01', 'dreads02'] },
  { when: ['bun', 'top knot', 'topknot', 'hair up'], tops: ['bun'] },
  { when: ['braids', 'braid', 'braided', 'flower crown'], tops: ['frida'] },
  { when: ['mohawk', 'undercut', 'shaved sides'], tops: ['shavedSides'] },
  { when: ['mullet'], tops: ['shaggyMullet'] },
  { when: ['shaggy', 'messy hair', 'messy', 'scruffy'], tops: ['shaggy', 'shaggyMullet'] },
  { when: ['bob', 'bob cut'], tops: ['bob'] },
  { when: ['bangs', 'fringe'], tops: ['miaWallace'] },
  { when: ['big hair', 'voluminous', 'huge hair'], tops: ['bigHair'] },
  { when: ['long curly', 'curly long'], tops: ['curvy', 'curly'] },
  { when: ['short curly', 'curly short'], tops: ['shortCurly'] },
  { when: ['curly', 'curls'], tops: ['curly', 'shortCurly', 'curvy'] },
  { when: ['long wavy', 'wavy long'], tops: ['curvy', 'straightAndStrand'] },
  { when: ['wavy'], tops: ['shortWaved', 'curvy'] },
  { when: ['frizzy'], tops: ['frizzle'] },
  { when: ['buzz cut', 'buzzcut', 'crew cut', 'caesar', 'military'], tops: ['theCaesar'] },
  { when: ['side part', 'slicked', 'slicked back', 'combed'], tops: ['theCaesarAndSidePart'] },
  { when: ['long hair', 'long haired', 'long straight', 'ponytail', 'shoulder length'], tops: ['longButNotTooLong', 'straight01', 'straight02', 'straightAndStrand'] },
  { when: ['short hair', 'short haired', 'short straight', 'cropped'], tops: ['shortFlat', 'shortRound', 'theCaesar', 'sides', 'shortWaved'] },
  { when: ['fedora', 'hat', 'trilby', 'cap'], tops: ['hat'], unless: ['no hat'] },
];

const FEMININE = ['woman', 'women', 'girl', 'lady', 'she', 'her', 'female', 'mom', 'mother', 'grandma', 'grandmother', 'queen', 'gal', 'sister', 'wife', 'aunt', 'daughter', 'girlfriend', 'princess'];
const MASCULINE = ['man', 'men', 'guy', 'boy', 'he', 'his', 'him', 'male', 'dude', 'dad', 'father', 'grandpa', 'grandfather', 'king', 'bro', 'brother', 'husband', 'uncle', 'gentleman', 'son', 'boyfriend', 'prince'];
// ---------------------------------------------------------------------------------------------
// Age: a decade ("in her 30s", "late forties"), a number of years ("35-year-old", "aged 62") or a
// word ("teenager", "grandpa"). What avataaars can show of it: grey hair, a beard or glasses that
// come with age, hairstyles and clothes of an age; a youth never gets grey hair or a beard by chance.

type Age = 'teen' | 'young' | 'adult' | 'middle' | 'older';

const OLDER = [
  'old', 'elderly', 'senior', 'grandma', 'grandpa', 'grandmother', 'grandfather', 'granny', 'grandad', 'granddad', 'gran',
  'retired', 'retiree', 'pensioner', 'older', 'aged', 'oldie', 'old man', 'old woman', 'old lady', 'old guy', 'silver haired',
];
const MIDDLE = ['middle aged', 'middle age', 'midlife', 'mid life'];
const TEEN = ['teen', 'teens', 'teenager', 'teenage', 'teenaged', 'adolescent', 'high school', 'highschool', 'schoolgirl', 'schoolboy', 'kid', 'child'];
const YOUNG = ['young', 'youthful', 'college', 'student', 'gen z', 'zoomer', 'twenty something', 'twentysomething'];
const DECADE_WORDS: Record<string, number> = { twenties: 20, thirties: 30, forties: 40, fifties: 50, sixties: 60, seventies: 70, eighties: 80, nineties: 90 };
/** Words before a decade that make it an age ("in her 30s", "early 40s"), not an era ("a 90s look"). */
const AGE_LEADS = new Set(['her', 'his', 'their', 'my', 'your', 'early', 'mid', 'late']);

const ageOfYears = (years: number): Age => (years < 20 ? 'teen' : years < 30 ? 'young' : years < 40 ? 'adult' : years < 60 ? 'middle' : 'older');

/** The decade or the number of years the prompt gives, if any. */
function yearsIn(words: readonly string[]): number | null {
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const lead = words[i - 1] ?? '';
    const decade = /^([1-9]0)s$/.exec(word)?.[1] ?? (DECADE_WORDS[word] !== undefined ? String(DECADE_WORDS[word]) : undefined);
    if (decade !== undefined && AGE_LEADS.has(lead)) return Number(decade) + 5;
    if (/^\d{1,2}$/.test(word)) {
      const next = words.slice(i + 1, i + 3).join(' ');
      if (/^(years? old|year|yo|yr old|yrs old)\b/.test(next) || lead === 'aged' || lead === 'age') return Number(word);
    }
    const compact = /^(\d{1,2})(yo|yrs?)$/.exec(word);
    if (compact) return Number(compact[1]);
  }
  return null;
}

function ageOf(words: readonly string[]): Age | null {
  const years = yearsIn(words);
  if (years !== null) return ageOfYears(years);
  if (hasAny(words, MIDDLE)) return 'middle';
  if (hasAny(words, OLDER)) return 'older';
  if (hasAny(words, TEEN)) return 'teen';
  if (hasAny(words, YOUNG)) return 'young';
  return null;
}

/** Expression words for the portrait, first match wins ("smiling" before "serious"). */
const DEMEANOUR_WORDS: ReadonlyArray<[Demeanour, readonly string[]]> = [
  ['smiling', ['smiling', 'smile', 'smiley', 'grinning', 'grin', 'cheerful', 'happy', 'friendly', 'joyful', 'beaming', 'laughing']],
  ['surprised', ['surprised', 'shocked', 'amazed', 'astonished', 'stunned', 'startled', 'wide eyed']],
  ['grumpy', ['grumpy', 'angry', 'annoyed', 'frowning', 'scowling', 'mad', 'cranky', 'irritated', 'furious']],
  ['sad', ['sad', 'unhappy', 'gloomy', 'melancholy', 'crying', 'tearful', 'upset']],
  ['skeptical', ['skeptical', 'sceptical', 'suspicious', 'doubtful', 'unconvinced', 'side eye']],
  ['serious', ['serious', 'stern', 'neutral', 'straight faced', 'straight face', 'stoic', 'expressionless', 'calm']],
];

function demeanourOf(words: readonly string[]): Demeanour | null {
  return DEMEANOUR_WORDS.find(([, phrases]) => hasAny(words, phrases))?.[0] ?? null;
}

const NATURAL_HAIR = ['2c1b18', '2c1b18', '4a312c', '724133', '724133', 'a55728', 'b58143', 'd6b370', 'c93305'] as const;
const PASTEL_BACKGROUNDS = ['b6e3f4', 'c0aede', 'd1d4f9', 'ffd5dc', 'ffdfbf', 'c9ecd0', 'fff0b3'] as const;
const CLOTHES_COLOURS = ['262e33', '65c9ff', '5199e4', '25557c', 'e6e6e6', '929598', '3c4f5c', 'b1e2ff', 'a7ffc4', 'ffafb9', 'ff488e', 'ff5c5c', 'ffffff'] as const;
const HAT_COLOURS = ['262e33', '5199e4', '25557c', '3c4f5c', 'a7ffc4', 'ff5c5c', 'ff488e', 'ffffff', 'e6e6e6'] as const;
/** Graphics for a graphic tee, minus the ones that read as a statement. */
const FRIENDLY_GRAPHICS: readonly ClothingGraphic[] = ['bat', 'bear', 'cumbia', 'deer', 'diamond', 'hola', 'pizza'];

type Presentation = 'feminine' | 'masculine' | 'unspecified';

function presentation(words: readonly string[]): Presentation {
  const f = hasAny(words, FEMININE);
  const m = hasAny(words, MASCULINE);
  if (f && !m) return 'feminine';
  if (m && !f) return 'masculine';
  return 'unspecified';
}

/** Hairstyles an older person is drawn with when the prompt says nothing of hair (no fashion cuts). */
const OLDER_TOPS: Record<Presentation, readonly Top[]> = {
  feminine: ['bob', 'bun', 'shortCurly', 'shortWaved', 'curly', 'longButNotTooLong'],
  masculine: ['sides', 'shortFlat', 'theCaesarAndSidePart', 'shortRound', 'sides'],
  unspecified: ['bob', 'shortCurly', 'sides', 'shortFlat', 'theCaesarAndSidePart'],
};

function chooseTop(words: readonly string[], pres: Presentation, age: Age | null, rnd: Random): Top | null {
  for (const rule of HAIR_RULES) {
    if (!hasAny(words, rule.when)) continue;
    if (rule.unless && hasAny(words, rule.unless)) continue;
    return rule.tops === null ? null : rnd.pick(rule.tops);
  }
  if (age === 'older') return rnd.pick(OLDER_TOPS[pres]);
  // Nothing said about hair: a soft prior from how the person is described, else anything.
  if (pres === 'feminine') return rnd.pick([...LONG_HAIR, 'bun', 'curly', 'curvy', 'bob'] as const);
  if (pres === 'masculine') return rnd.pick(SHORT_HAIR);
  return rnd.pick(ANY_HAIR);
}

function chooseFacialHair(words: readonly string[], pres: Presentation, age: Age | null, rnd: Random): FacialHair | null {
  if (hasAny(words, ['clean shaven', 'clean shaved', 'no beard', 'beardless', 'shaved face', 'no facial hair'])) return null;
  if (hasAny(words, ['long beard', 'big beard', 'bushy beard', 'majestic beard', 'full beard', 'huge beard', 'wizard', 'lumberjack', 'viking'])) return 'beardMajestic';
  if (hasAny(words, ['stubble', 'light beard', 'short beard', 'five o\'clock shadow', 'scruff'])) return 'beardLight';
  if (hasAny(words, ['handlebar', 'handlebar moustache', 'handlebar mustache', 'curly moustache'])) return 'moustacheFancy';
  if (hasAny(words, ['beard', 'bearded', 'goatee'])) return rnd.pick(['beardMedium', 'beardMedium', 'beardLight'] as const);
  if (hasAny(words, ['moustache', 'mustache', 'mustached', 'moustached', 'stache', 'mustachioed'])) return rnd.pick(['moustacheFancy', 'moustacheMagnum'] as const);
  // Unnamed, a beard comes by chance only to men old enough to grow one; with age, often.
  if (pres !== 'masculine' || age === 'teen') return null;
  if (age === 'older' || age === 'middle') return rnd.chance(0.45) ? rnd.pick(['beardMedium', 'beardLight', 'moustacheFancy', 'moustacheMagnum'] as const) : null;
  return rnd.chance(0.25) ? rnd.pick(['beardLight', 'beardMedium'] as const) : null;
}

function chooseAccessory(words: readonly string[], age: Age | null, rnd: Random): Accessory | null {
  if (hasAny(words, ['no glasses', 'without glasses'])) return null;
  if (hasAny(words, ['eyepatch', 'eye patch', 'pirate'])) return 'eyepatch';
  if (hasAny(words, ['sunglasses', 'shades', 'sunnies', 'aviators'])) return rnd.pick(['sunglasses', 'wayfarers'] as const);
  if (hasAny(words, ['round glasses', 'round spectacles', 'harry potter glasses', 'circle glasses'])) return 'round';
  if (hasAny(words, ['glasses', 'spectacles', 'specs', 'eyeglasses', 'bespectacled', 'nerd', 'nerdy', 'geek', 'geeky'])) {
    return rnd.pick(['prescription01', 'prescription02', 'round'] as const);
  }
  // Reading glasses come with age.
  return rnd.chance(age === 'older' ? 0.5 : 0.12) ? rnd.pick(['prescription01', 'prescription02'] as const) : null;
}

function chooseClothing(words: readonly string[], age: Age | null, rnd: Random): Clothing {
  if (hasAny(words, ['hoodie', 'hooded', 'hoody', 'sweatshirt'])) return 'hoodie';
  if (hasAny(words, ['blazer', 'suit', 'business', 'professional', 'formal', 'tuxedo', 'office', 'ceo', 'businessman', 'businesswoman', 'jacket'])) {
    return rnd.pick(['blazerAndShirt', 'blazerAndSweater'] as const);
  }
  if (hasAny(words, ['sweater', 'jumper', 'cardigan', 'knit', 'knitted', 'pullover'])) return 'collarAndSweater';
  if (hasAny(words, ['overalls', 'overall', 'dungarees'])) return 'overall';
  if (hasAny(words, ['graphic tee', 'graphic t shirt', 'graphic shirt', 'printed shirt', 'band shirt', 'band tee', 'print'])) return 'graphicShirt';
  if (hasAny(words, ['v neck', 'vneck'])) return 'shirtVNeck';
  if (hasAny(words, ['scoop neck'])) return 'shirtScoopNeck';
  if (hasAny(words, ['t shirt', 'tshirt', 'tee', 'shirt', 'top'])) return rnd.pick(['shirtCrewNeck', 'shirtScoopNeck', 'shirtVNeck'] as const);
  if (age === 'teen') return rnd.pick(['hoodie', 'graphicShirt', 'shirtCrewNeck', 'overall'] as const);
  if (age === 'older') return rnd.pick(['collarAndSweater', 'blazerAndSweater', 'blazerAndShirt', 'shirtCrewNeck'] as const);
  return rnd.pick(['blazerAndShirt', 'collarAndSweater', 'graphicShirt', 'hoodie', 'shirtCrewNeck', 'shirtScoopNeck', 'shirtVNeck', 'overall'] as const);
}

function chooseSkin(colours: Map<Target, ColourName>, rnd: Random): string {
  const named = colours.get('skin')?.skin;
  if (named) return named;
  return rnd.pick([SKIN_TONES.light, SKIN_TONES.lightMedium, SKIN_TONES.lightMedium, SKIN_TONES.medium, SKIN_TONES.brown, SKIN_TONES.dark]);
}

/**
 * The seed string handed to DiceBear: it only decides what the options leave open (nothing, since
 * every trait is resolved), but a stable value keeps the SVG stable too.
 */
const dicebearSeed = (seed: number) => `reaction-studio-${seed}`;

/** The words without colour words, so that "long red hair" reads as "long hair" for the hairstyle. */
function withoutColours(words: readonly string[]): string[] {
  return words.filter((w) => !COLOURS[w] || TARGET_NOUNS[w]);
}

/** Reads a prompt into a complete, deterministic illustrated avatar. */
export function rigFromPrompt(prompt: string, seed: number): IllustratedRig {
  const words = promptWords(prompt);
  const colours = colourHits(words);
  const pres = presentation(words);
  const stream = (name: string) => streamFor(seed, name);

  const age = ageOf(words);
  const top = chooseTop(withoutColours(words), pres, age, stream('top'));
  // Grey comes with age: always when older, for some in middle age; never by chance before.
  const greyByAge = age === 'older' || (age === 'middle' && stream('hair-age').chance(0.35));
  const hairColor = colours.get('hair')?.hair ?? (greyByAge ? 'e8e1e1' : stream('hair-colour').pick(NATURAL_HAIR));
  const facialHair = chooseFacialHair(words, pres, age, stream('facial-hair'));
  // A beard is the hair's colour unless the prompt colours it; fashion colours stay on the head.
  const beardNamed = colours.get('beard')?.hair;
  const facialHairColor = beardNamed ?? (['f59797', 'ecdcbf'].includes(hairColor) ? '4a312c' : hairColor);
  const accessories = chooseAccessory(words, age, stream('glasses'));
  const glassesColour = colours.get('glasses')?.clothes;
  const accessoriesColor = glassesColour ?? (accessories === 'sunglasses' || accessories === 'wayfarers' ? '262e33' : stream('glasses-colour').pick(['262e33', '262e33', '3c4f5c', '25557c'] as const));
  const clothing = chooseClothing(words, age, stream('clothing'));
  const clothesColor = colours.get('clothes')?.clothes ?? stream('clothes-colour').pick(CLOTHES_COLOURS);
  const hatColor = colours.get('hat')?.clothes ?? stream('hat-colour').pick(HAT_COLOURS);
  const backgroundColor = colours.get('background')?.background ?? stream('background').pick(PASTEL_BACKGROUNDS);
  const demeanour = demeanourOf(words);

  const options: AvataaarsLook = {
    seed: dicebearSeed(seed),
    style: ['default'],
    top: top ? [top] : [],
    topProbability: top ? 100 : 0,
    hairColor: [hairColor],
    hatColor: [hatColor],
    skinColor: [chooseSkin(colours, stream('skin'))],
    facialHair: facialHair ? [facialHair] : [],
    facialHairProbability: facialHair ? 100 : 0,
    facialHairColor: [facialHairColor],
    accessories: accessories ? [accessories] : [],
    accessoriesProbability: accessories ? 100 : 0,
    accessoriesColor: [accessoriesColor],
    clothing: [clothing],
    clothesColor: [clothesColor],
    clothingGraphic: [stream('graphic').pick(FRIENDLY_GRAPHICS)],
    backgroundColor: [backgroundColor],
  };
  return {
    kind: 'illustrated',
    engine: 'local',
    style: 'avataaars',
    version: 1,
    options,
    eyebrowStyle: stream('eyebrows').chance(0.5) ? 'natural' : 'classic',
    ...(demeanour ? { demeanour } : {}),
  };
}
