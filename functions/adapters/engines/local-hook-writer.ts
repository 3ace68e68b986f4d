/**
 * The local engine's hook writer: ten caption ideas for a product, offline and deterministic for a
 * seed. It is template-based, but every idea is built from the product's own name and what its
 * description says it does, so no two products get the same list.
 */
import type { HookEngine, HookFormat, HookIdea, ProductBrief } from '#ports/engine';
import { hashSeed, randomFrom, type Random } from '#render';

export const HOOK_MAX_CHARS = 100;

/** What the description tells us, reduced to phrases that fit into a caption. */
export interface ProductTraits {
  name: string;
  /** "fades dark spots in 2 weeks": what the product does, as a verb phrase. */
  benefit: string | null;
  /** "serum", "app", "course": what kind of thing it is. */
  category: string | null;
  /** A number worth quoting ("2 weeks", "10 minutes", "50%"). */
  figure: string | null;
}

type Template = (t: ProductTraits) => string | null;

const CATEGORY_WORDS = [
  'app', 'serum', 'cream', 'game', 'course', 'book', 'tool', 'bottle', 'shoe', 'shoes', 'sneakers', 'bag', 'lamp',
  'headphones', 'earbuds', 'watch', 'supplement', 'tea', 'coffee', 'snack', 'planner', 'template', 'plugin', 'platform',
  'service', 'kit', 'set', 'brush', 'shampoo', 'mask', 'camera', 'charger', 'speaker', 'mattress', 'pillow', 'jacket',
  'dress', 'necklace', 'ring', 'toy', 'blender', 'vacuum', 'gadget', 'device', 'extension', 'website', 'newsletter',
];

/** "helps you finish" → "finish": the templates supply their own subject. */
const HELPER_VERBS = /^(?:helps?|lets?|allows?|enables?)\s+(?:you\s+)?(?:to\s+)?/i;
const BENEFIT_LEAD = /\b(?:that|which|to|helps?(?: you)?|lets? you|makes?|will)\s+(.+)$/i;
const FIGURE = /\b(\d+(?:[.,]\d+)?\s?(?:%|x|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|steps?|kg|lbs?|hours))/i;

export function productTraits(product: ProductBrief): ProductTraits {
  const name = product.name.trim().replace(/\s+/g, ' ');
  const description = (product.description ?? '').trim().replace(/\s+/g, ' ');
  const firstSentence = description.split(/(?<=[.!?])\s/)[0]?.replace(/[.!?]+$/, '') ?? '';
  const lower = `${name} ${description}`.toLowerCase();
  const category = CATEGORY_WORDS.find((word) => new RegExp(`\\b${word}\\b`).test(lower)) ?? null;
  let benefit: string | null = null;
  const lead = BENEFIT_LEAD.exec(firstSentence);
  if (lead) benefit = lead[1]!;
  else if (firstSentence && !firstSentence.toLowerCase().startsWith(name.toLowerCase())) benefit = null;
  if (benefit) benefit = baseForm(lowerFirst(benefit.replace(/[,;:].*$/, '').replace(HELPER_VERBS, '').trim()));
  return { name, benefit: benefit || null, category, figure: FIGURE.exec(description)?.[1] ?? null };
}

const thing = (t: ProductTraits) => (t.category ? `this ${t.category}` : t.name);

/** Several templates per format; the seed picks one, and any that does not fit is skipped. */
const TEMPLATES: Record<HookFormat, Template[]> = {
  pov: [
    (t) => (t.benefit ? `POV: you found ${t.name} and it actually ${thirdPerson(t.benefit)}` : null),
    (t) => `POV: you finally tried ${t.name} everyone keeps talking about`,
    (t) => (t.category ? `POV: the ${t.category} you doubted just became your favourite` : null),
  ],
  question: [
    (t) => (t.benefit ? `Why is nobody talking about a ${t.category ?? 'thing'} that ${thirdPerson(t.benefit)}?` : null),
    (t) => `Has anyone else tried ${t.name} yet?`,
    (t) => (t.benefit ? `What if you could ${t.benefit}?` : null),
  ],
  curiosity_gap: [
    (t) => `I didn't expect ${t.name} to do THIS`,
    (t) => `Wait until you see what ${thing(t)} does at the end`,
    (t) => (t.figure ? `What happened after ${t.figure} with ${t.name} shocked me` : null),
  ],
  challenge: [
    (t) => `Try ${t.name} for 7 days and tell me it's not worth it`,
    (t) => (t.benefit ? `I bet you can't ${t.benefit} faster than with ${t.name}` : null),
    (t) => `${t.name} challenge: I tried it so you don't have to`,
  ],
  confession: [
    (t) => `Confession: I was wrong about ${t.name}`,
    (t) => (t.benefit ? `Honestly? I didn't believe ${thing(t)} could ${t.benefit}` : null),
    (t) => `I rolled my eyes at ${t.name}. Then I tried it.`,
  ],
  listicle: [
    (t) => `3 reasons ${t.name} lives rent-free in my head`,
    (t) => (t.benefit ? `${t.name}: 1 ${t.category ?? 'thing'}, 0 excuses to not ${t.benefit}` : null),
    (t) => `Things I'd buy again: ${t.name}, no question`,
  ],
  before_after: [
    (t) => (t.figure ? `Me before ${t.name} vs. me ${t.figure} later` : null),
    (t) => `My life before ${t.name} vs. after`,
    (t) => (t.benefit ? `Before: struggling. After ${t.name}: ${t.benefit}` : null),
  ],
  warning: [
    (t) => `Don't buy ${t.name} unless you're ready for this`,
    (t) => `Warning: ${t.name} is weirdly addictive`,
    (t) => (t.category ? `Stop scrolling if you need a ${t.category} that works` : null),
  ],
  social_proof: [
    (t) => `Everyone asked what I use. It's ${t.name}.`,
    (t) => (t.benefit ? `My friends can't believe ${thing(t)} ${thirdPerson(t.benefit)}` : null),
    (t) => `The ${t.category ?? 'find'} my group chat won't stop talking about: ${t.name}`,
  ],
  story: [
    (t) => `I almost scrolled past ${t.name}. Glad I didn't.`,
    (t) => (t.benefit ? `Day 1 with ${t.name}: I just wanted to ${t.benefit}` : null),
    (t) => `How ${t.name} quietly changed my routine`,
  ],
};

export const HOOK_FORMATS = Object.keys(TEMPLATES) as HookFormat[];

export function writeHooks(product: ProductBrief, seed: number, count: number): HookIdea[] {
  const random = randomFrom(hashSeed(seed, product.name, product.description ?? ''));
  const traits = productTraits(product);
  const formats = shuffle(random, [...HOOK_FORMATS]);
  const ideas: HookIdea[] = [];
  const seen = new Set<string>();
  // Round-robin over shuffled formats so the list stays varied; a format runs out when its templates do.
  const remaining = new Map(formats.map((f) => [f, shuffle(random, [...TEMPLATES[f]])]));
  while (ideas.length < count && [...remaining.values()].some((list) => list.length > 0)) {
    for (const format of formats) {
      const template = remaining.get(format)!.shift();
      if (!template) continue;
      const text = fit(template(traits), traits, template);
      if (!text || seen.has(text.toLowerCase())) continue;
      seen.add(text.toLowerCase());
      ideas.push({ text, format });
      if (ideas.length === count) break;
    }
  }
  return ideas;
}

/** Keeps a caption within HOOK_MAX_CHARS: shorten the benefit, then the name, never cut mid-word. */
function fit(text: string | null, traits: ProductTraits, template: Template): string | null {
  if (!text) return null;
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
  if (clean(text).length <= HOOK_MAX_CHARS) return clean(text);
  if (traits.benefit) {
    const shorter = template({ ...traits, benefit: shortenPhrase(traits.benefit, 40) });
    if (shorter && clean(shorter).length <= HOOK_MAX_CHARS) return clean(shorter);
  }
  const shortName = template({ ...traits, name: shortenPhrase(traits.name, 30), benefit: traits.benefit && shortenPhrase(traits.benefit, 30) });
  return shortName && clean(shortName).length <= HOOK_MAX_CHARS ? clean(shortName) : null;
}

function shortenPhrase(phrase: string, max: number): string {
  if (phrase.length <= max) return phrase;
  const cut = phrase.slice(0, max + 1);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace > max / 2 ? cut.slice(0, lastSpace) : phrase.slice(0, max)).replace(/[\s,;:-]+$/, '');
}

/** "fades dark spots" → "fade dark spots": benefits are kept in the base form, for "to ___". */
function baseForm(phrase: string): string {
  const [verb, ...rest] = phrase.split(' ');
  if (!verb || rest.length === 0 || /ss$/.test(verb)) return phrase;
  const base = /ies$/.test(verb) ? `${verb.slice(0, -3)}y` : /(sh|ch|x|z|o)es$/.test(verb) ? verb.slice(0, -2) : /s$/.test(verb) ? verb.slice(0, -1) : verb;
  return [base, ...rest].join(' ');
}

/** "fade dark spots" → "fades dark spots", for "it ___". */
function thirdPerson(phrase: string): string {
  const [verb, ...rest] = phrase.split(' ');
  if (!verb || /s$/.test(verb) || rest.length === 0) return phrase;
  const conjugated = /(sh|ch|x|z|o)$/.test(verb) ? `${verb}es` : /[^aeiou]y$/.test(verb) ? `${verb.slice(0, -1)}ies` : `${verb}s`;
  return [conjugated, ...rest].join(' ');
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export function localHookEngine(): HookEngine {
  return {
    name: 'local',
    async hookIdeas(product, options) {
      return writeHooks(product, options.seed, options.count);
    },
  };
}

