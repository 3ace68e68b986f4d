import { promptWords, rigFromPrompt } from '#render';
import { isIllustratedRig, SKIN_TONES, type IllustratedRig } from '#render';

const o = (rig: IllustratedRig) => rig.options;
const LONG = ['longButNotTooLong', 'straight01', 'straight02', 'straightAndStrand', 'bob', 'curvy', 'bigHair', 'miaWallace'];

describe('an illustrated avatar read from a prompt', () => {
  test('the same prompt and seed give the same avatar', () => {
    expect(rigFromPrompt('a cheerful barista', 42)).toEqual(rigFromPrompt('a cheerful barista', 42));
  });

  test('"bald man with glasses and a beard" is bald, wears glasses and has a beard', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const rig = rigFromPrompt('bald man with glasses and a beard', seed);
      expect(o(rig).top).toEqual([]);
      expect(o(rig).topProbability).toBe(0);
      expect(o(rig).accessoriesProbability).toBe(100);
      expect(['prescription01', 'prescription02', 'round']).toContain(o(rig).accessories[0]);
      expect(o(rig).facialHairProbability).toBe(100);
      expect(['beardLight', 'beardMedium']).toContain(o(rig).facialHair[0]);
    }
  });

  test('hair length, colours, clothes and background come from the words that name them', () => {
    const rig = rigFromPrompt('woman with long red hair in a blue hoodie on a pink background', 9);
    expect(LONG).toContain(o(rig).top[0]);
    expect(o(rig).hairColor).toEqual(['c93305']);
    expect(o(rig).clothing).toEqual(['hoodie']);
    expect(o(rig).clothesColor).toEqual(['5199e4']);
    expect(o(rig).backgroundColor).toEqual(['ffd5dc']);
    expect(o(rig).facialHair).toEqual([]);
  });

  test.each([
    ['guy with a bun and a moustache', { top: ['bun'], facialHair: /^moustache/ }],
    ['person with an afro and sunglasses', { top: ['fro'], accessories: /^(sunglasses|wayfarers)$/ }],
    ['blonde woman in a green sweater', { hairColor: ['d6b370'], clothing: ['collarAndSweater'], clothesColor: ['a7ffc4'] }],
    ['man in a black suit with grey hair', { clothing: /^blazerAnd/, clothesColor: ['262e33'], hairColor: ['e8e1e1'] }],
    ['dreadlocks, white t-shirt, yellow background', { top: /^dreads/, clothesColor: ['ffffff'], backgroundColor: ['fff0b3'] }],
    ['pirate with an eyepatch and a long beard', { accessories: ['eyepatch'], facialHair: ['beardMajestic'] }],
    ['woman wearing a hijab', { top: ['hijab'] }],
  ])('%s', (prompt, expected) => {
    const options = o(rigFromPrompt(prompt, 3)) as unknown as Record<string, unknown>;
    for (const [key, want] of Object.entries(expected)) {
      if (want instanceof RegExp) expect((options[key] as string[])[0]).toMatch(want);
      else expect(options[key]).toEqual(want);
    }
  });

  test('skin tones are named by skin words, and always from the realistic palette', () => {
    expect(o(rigFromPrompt('dark-skinned man', 1)).skinColor).toEqual([SKIN_TONES.dark]);
    expect(o(rigFromPrompt('black woman with braids', 1)).skinColor).toEqual([SKIN_TONES.dark]);
    expect(o(rigFromPrompt('pale guy with freckles', 1)).skinColor).toEqual([SKIN_TONES.light]);
    expect(o(rigFromPrompt('tan surfer', 1)).skinColor).toEqual([SKIN_TONES.medium]);
    const realistic = Object.values(SKIN_TONES) as string[];
    for (let seed = 0; seed < 60; seed++) expect(realistic).toContain(o(rigFromPrompt('someone', seed)).skinColor[0]);
  });

  test('what the prompt does not name comes from the seed', () => {
    const tops = new Set<string>();
    const backgrounds = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const rig = rigFromPrompt('a person reacting', seed);
      tops.add(String(o(rig).top[0]));
      backgrounds.add(o(rig).backgroundColor[0]);
    }
    expect(tops.size).toBeGreaterThan(8);
    expect(backgrounds.size).toBeGreaterThan(4);
  });

  test('naming one more trait changes that trait only', () => {
    for (const seed of [11, 12, 13]) {
      const plain = o(rigFromPrompt('a man', seed));
      const withGlasses = o(rigFromPrompt('a man with glasses', seed));
      expect(withGlasses.accessoriesProbability).toBe(100);
      for (const key of ['top', 'hairColor', 'skinColor', 'clothing', 'clothesColor', 'backgroundColor', 'facialHair'] as const) {
        expect(withGlasses[key]).toEqual(plain[key]);
      }
    }
  });

  test('backgrounds stay soft: every background is light', () => {
    for (let seed = 0; seed < 30; seed++) {
      const hex = o(rigFromPrompt('anyone', seed)).backgroundColor[0];
      const n = Number.parseInt(hex, 16);
      const luminance = 0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255);
      expect(luminance).toBeGreaterThan(170);
    }
  });

  test.each([
    ['an empty', ''],
    ['an emoji-only', '😱🤯😂'],
    ['a huge', 'curly '.repeat(50_000)],
    ['a control-character', '\u0000\u0007\uffff\ud800'],
    ['an HTML', '<svg onload=alert(1)> "red" hair'],
  ])('%s prompt still gives a valid avatar', (_name, prompt) => {
    const rig = rigFromPrompt(prompt, 5);
    expect(isIllustratedRig(rig)).toBe(true);
  });

  test('a stored rig that was tampered with is not accepted', () => {
    const rig = rigFromPrompt('a man', 1);
    expect(isIllustratedRig(JSON.parse(JSON.stringify(rig)))).toBe(true);
    expect(isIllustratedRig({ ...rig, options: { ...rig.options, top: ['<script>'], topProbability: 100 } })).toBe(false);
    expect(isIllustratedRig({ ...rig, options: { ...rig.options, skinColor: ['red"/><svg'] } })).toBe(false);
    expect(isIllustratedRig({ ...rig, kind: 'photo-face' })).toBe(false);
    expect(isIllustratedRig(null)).toBe(false);
  });

  test('prompt words are split on punctuation and case-folded', () => {
    expect(promptWords("Red-haired WOMAN, in a T-shirt!")).toEqual(['red', 'haired', 'woman', 'in', 'a', 't', 'shirt']);
  });
});

describe('prompts read as people: age, hair, glasses, facial hair and expression (docs/engines.md)', () => {
  const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
  const GREY = 'e8e1e1';
  const FEMININE_TOPS = [...LONG, 'bun', 'curly', 'curvy', 'bob'];
  const OLDER_FEMININE_TOPS = ['bob', 'bun', 'shortCurly', 'shortWaved', 'curly', 'longButNotTooLong'];
  const SHORT = ['shortFlat', 'shortRound', 'shortWaved', 'theCaesar', 'theCaesarAndSidePart', 'sides', 'shortCurly', 'shaggy'];

  /** Over several seeds: what every drawing of the prompt must show. */
  type Rule = (rig: IllustratedRig) => void;
  const grey: Rule = (rig) => expect(o(rig).hairColor).toEqual([GREY]);
  const notGrey: Rule = (rig) => expect(o(rig).hairColor).not.toEqual([GREY]);
  const noFacialHair: Rule = (rig) => expect(o(rig).facialHair).toEqual([]);
  const topIn = (tops: readonly string[]): Rule => (rig) => expect(tops).toContain(o(rig).top[0]);
  const demeanour = (name: string | undefined): Rule => (rig) => expect(rig.demeanour).toBe(name);
  const is = (key: keyof IllustratedRig['options'], pattern: RegExp): Rule => (rig) => expect(String((o(rig)[key] as unknown[])[0])).toMatch(pattern);

  test.each<[string, Rule[]]>([
    // Age.
    ['a woman in her 30s, shocked', [notGrey, noFacialHair, topIn(FEMININE_TOPS), demeanour('surprised')]],
    ['a man in his early 20s', [notGrey]],
    ['a teenager', [notGrey, noFacialHair, is('clothing', /^(hoodie|graphicShirt|shirtCrewNeck|overall)$/)]],
    ['a teenage boy', [notGrey, noFacialHair]],
    ['a young guy', [notGrey]],
    ['grandpa', [grey]],
    ['an elderly woman', [grey, noFacialHair, topIn(OLDER_FEMININE_TOPS)]],
    ['a 67-year-old man', [grey]],
    ['a woman aged 72', [grey]],
    ['a retired teacher', [grey]],
    // A decade that is an era, not an age.
    ['a guy with a 90s look', [notGrey]],
    // Hair: colour and length.
    ['a blonde woman', [is('hairColor', /^d6b370$/)]],
    ['an old man with blonde hair', [is('hairColor', /^d6b370$/)]],
    ['a curly haired man', [topIn(['curly', 'shortCurly', 'curvy'])]],
    ['a bald grandpa', [(rig) => expect(o(rig).top).toEqual([])]],
    ['a man with long hair', [topIn(['longButNotTooLong', 'straight01', 'straight02', 'straightAndStrand'])]],
    ['a woman with short hair', [topIn(['shortFlat', 'shortRound', 'theCaesar', 'sides', 'shortWaved'])]],
    ['a man', [topIn(SHORT)]],
    // Glasses and facial hair.
    ['a woman with glasses', [is('accessories', /^(prescription01|prescription02|round)$/)]],
    ['a guy in sunglasses', [is('accessories', /^(sunglasses|wayfarers)$/)]],
    ['a man with a beard', [is('facialHair', /^beard/)]],
    ['a grandpa with a moustache', [grey, is('facialHair', /^moustache/)]],
    // Expression: the portrait's face.
    ['a smiling nurse', [demeanour('smiling')]],
    ['a grumpy grandpa', [grey, demeanour('grumpy')]],
    ['a serious businessman', [demeanour('serious')]],
    ['a sad clown', [demeanour('sad')]],
    ['a skeptical shopper', [demeanour('skeptical')]],
    ['a barista', [demeanour(undefined)]],
  ])('%s', (prompt, rules) => {
    for (const seed of SEEDS) {
      const rig = rigFromPrompt(prompt, seed);
      expect(isIllustratedRig(rig)).toBe(true);
      for (const rule of rules) rule(rig);
    }
  });

  test('age brings what it brings by chance too: older men often a beard and glasses, teens never a beard', () => {
    const seeds = Array.from({ length: 60 }, (_, i) => i);
    const share = (prompt: string, has: (rig: IllustratedRig) => boolean) => seeds.filter((seed) => has(rigFromPrompt(prompt, seed))).length / seeds.length;
    expect(share('an old man', (rig) => o(rig).facialHair.length > 0)).toBeGreaterThan(0.3);
    expect(share('an old man', (rig) => o(rig).accessories.length > 0)).toBeGreaterThan(0.3);
    expect(share('a teenage boy', (rig) => o(rig).facialHair.length > 0)).toBe(0);
    expect(share('a man in his 30s', (rig) => o(rig).hairColor[0] === GREY)).toBe(0);
    expect(share('a man in his late 40s', (rig) => o(rig).hairColor[0] === GREY)).toBeGreaterThan(0.1);
  });

  test('a stored rig with an unknown expression is not accepted; one stored before expressions still is', () => {
    const rig = rigFromPrompt('a smiling man', 1);
    expect(isIllustratedRig({ ...rig, demeanour: '<script>' })).toBe(false);
    const { demeanour: _dropped, ...older } = rig;
    expect(isIllustratedRig(older)).toBe(true);
  });
});
