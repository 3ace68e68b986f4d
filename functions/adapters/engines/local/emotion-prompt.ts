/**
 * Reaction prompt → what to perform: an emotion, how strongly, and for how long. Keyword and phrase
 * matching (emoji included), deterministic. When nothing matches, the reaction is `shocked`: the
 * archetypal reaction-video face, and the one a hook most often wants.
 */
import { REACTION_CLIP } from '#ports/engine';
import type { Emotion } from '#render';
import { promptWords } from '#render';

export const DEFAULT_EMOTION: Emotion = 'shocked';

export interface ReactionRead {
  emotion: Emotion;
  /** 0.6 (mild) .. 1 (as strong as the rig draws). */
  intensity: number;
  /** Seconds, within the reaction clip's limits. */
  durationS: number;
  /** The words that decided the emotion (empty for the default), for logs and debugging. */
  matched: string[];
}

/** Words and phrases per emotion. Phrases count double: "mind blown" beats a stray "blown". */
const VOCABULARY: Record<Emotion, readonly string[]> = {
  shocked: [
    'shock', 'shocked', 'shocking', 'surprise', 'surprised', 'gasp', 'gasps', 'gasping', 'omg', 'oh my god', 'oh my gosh',
    'no way', 'stunned', 'speechless', 'jaw drop', 'jaw dropping', 'jaw dropped', 'can\'t believe', 'cannot believe',
    'unbelievable', 'astonished', 'startled', 'wtf', 'what the', 'wait what', 'scared', 'terrified', 'horrified', 'afraid',
    'frightened', 'panic', 'yikes', 'whoa', 'woah', 'wow',
  ],
  laughing: [
    'laugh', 'laughs', 'laughing', 'laughter', 'lol', 'lmao', 'lmfao', 'rofl', 'haha', 'hahaha', 'hilarious', 'funny',
    'giggle', 'giggling', 'cracking up', 'cracks up', 'dying of laughter', 'in stitches', 'chuckle', 'chuckling', 'cackle', 'joke',
  ],
  excited: [
    'excited', 'exciting', 'excitement', 'hyped', 'hype', 'pumped', 'thrilled', 'yay', 'let\'s go', 'lets go', 'can\'t wait',
    'stoked', 'celebrate', 'celebrating', 'ecstatic', 'yes', 'woohoo', 'woo', 'amazing', 'awesome', 'incredible', 'fired up', 'energetic',
  ],
  crying: [
    'cry', 'cries', 'crying', 'tears', 'tearful', 'sob', 'sobbing', 'sad', 'sadness', 'heartbroken', 'devastated', 'upset',
    'weep', 'weeping', 'depressed', 'miserable', 'emotional', 'tear up', 'teary',
  ],
  disgusted: [
    'disgust', 'disgusted', 'disgusting', 'gross', 'grossed out', 'ew', 'eww', 'ewww', 'yuck', 'yucky', 'nasty', 'cringe',
    'cringing', 'cringey', 'vomit', 'puke', 'revolting', 'ick', 'icky', 'repulsed', 'nauseous', 'sick',
  ],
  mind_blown: [
    'mind blown', 'mindblown', 'mind blowing', 'mindblowing', 'blew my mind', 'blows my mind', 'blown away', 'genius',
    'game changer', 'gamechanger', 'life changing', 'insane', 'mind explode', 'brain explode', 'revolutionary',
  ],
  skeptical: [
    'skeptical', 'sceptical', 'suspicious', 'doubt', 'doubtful', 'doubting', 'hmm', 'hmmm', 'unsure', 'side eye', 'side eyeing',
    'not convinced', 'unconvinced', 'sus', 'questioning', 'raised eyebrow', 'eyebrow raise', 'skeptic', 'dubious', 'is this real',
  ],
  in_love: [
    'love', 'in love', 'loving', 'obsessed', 'adore', 'adoring', 'crush', 'heart eyes', 'swoon', 'swooning', 'cute', 'adorable',
    'smitten', 'romantic', 'dreamy', 'need this', 'want this',
  ],
  angry: [
    'angry', 'anger', 'mad', 'furious', 'rage', 'raging', 'enraged', 'annoyed', 'pissed', 'outraged', 'fuming', 'frustrated',
    'irritated', 'livid', 'triggered', 'hate',
  ],
  happy: [
    'happy', 'happiness', 'smile', 'smiling', 'glad', 'pleased', 'joy', 'joyful', 'cheerful', 'satisfied', 'delighted', 'content',
    'grateful', 'relieved', 'proud', 'nice', 'good', 'great',
  ],
};

/** Emoji (matched in the raw prompt, before words are split). */
const EMOJI: ReadonlyArray<[string, Emotion]> = [
  ['😱', 'shocked'], ['😮', 'shocked'], ['😲', 'shocked'], ['😳', 'shocked'], ['😨', 'shocked'], ['🙀', 'shocked'], ['‼', 'shocked'],
  ['😂', 'laughing'], ['🤣', 'laughing'], ['😆', 'laughing'], ['😹', 'laughing'],
  ['🤩', 'excited'], ['🥳', 'excited'], ['🎉', 'excited'], ['🔥', 'excited'], ['🙌', 'excited'],
  ['😭', 'crying'], ['😢', 'crying'], ['🥲', 'crying'], ['💔', 'crying'], ['😿', 'crying'],
  ['🤢', 'disgusted'], ['🤮', 'disgusted'], ['😖', 'disgusted'],
  ['🤯', 'mind_blown'], ['💥', 'mind_blown'],
  ['🤨', 'skeptical'], ['🧐', 'skeptical'], ['🤔', 'skeptical'], ['😒', 'skeptical'], ['👀', 'skeptical'],
  ['😍', 'in_love'], ['🥰', 'in_love'], ['😻', 'in_love'], ['❤', 'in_love'], ['💕', 'in_love'], ['💖', 'in_love'], ['😘', 'in_love'],
  ['😡', 'angry'], ['😠', 'angry'], ['🤬', 'angry'], ['💢', 'angry'],
  ['😊', 'happy'], ['😄', 'happy'], ['🙂', 'happy'], ['😁', 'happy'], ['😀', 'happy'], ['☺', 'happy'],
];

/** Words too common to decide on their own ("great product, shocked by the price"): half weight. */
const WEAK = new Set(['wow', 'yes', 'good', 'great', 'nice', 'amazing', 'awesome', 'incredible', 'funny', 'joke', 'cute', 'sick', 'insane', 'woo', 'love', 'hate', 'emotional', 'want this', 'need this']);

const NEGATIONS = new Set(['not', 'no', 'never', 'isn\'t', 'wasn\'t', 'don\'t', 'doesn\'t', 'didn\'t', 'aren\'t', 'without', 'hardly']);
const STRONG = ['very', 'extremely', 'super', 'so', 'totally', 'completely', 'absolutely', 'really', 'utterly', 'insanely', 'massively', 'hugely', 'incredibly'];
const MILD = ['slightly', 'a bit', 'a little', 'mildly', 'somewhat', 'kind of', 'kinda', 'sort of', 'a tad', 'subtle', 'subtly', 'quietly'];

const ORDER: readonly Emotion[] = ['shocked', 'laughing', 'excited', 'crying', 'disgusted', 'mind_blown', 'skeptical', 'in_love', 'angry', 'happy'];

function occurrences(words: readonly string[], phrase: string): number[] {
  const parts = phrase.split(' ');
  const at: number[] = [];
  outer: for (let i = 0; i + parts.length <= words.length; i++) {
    for (let j = 0; j < parts.length; j++) if (words[i + j] !== parts[j]) continue outer;
    at.push(i);
  }
  return at;
}

/**
 * A duration asked for in the prompt ("for 3 seconds", "5s", "4.5 sec"), clamped to the clip limits.
 * A decade is not a duration: "in her 30s", "a 90s look", "’80s" name an age or an era.
 */
export function durationFromPrompt(prompt: string): number {
  const asked = [...prompt.slice(0, 2000).matchAll(/(['’]?)(\d+(?:[.,]\d+)?)(\s*)(s|sec|secs|second|seconds)\b/gi)].find((m) => !isDecade(m));
  if (!asked) return REACTION_CLIP.defaultS;
  const seconds = Number(asked[2]!.replace(',', '.'));
  if (!Number.isFinite(seconds)) return REACTION_CLIP.defaultS;
  // Whole frames only: the clip's length is a frame count.
  const clamped = Math.min(REACTION_CLIP.maxS, Math.max(REACTION_CLIP.minS, seconds));
  return Math.round(clamped * REACTION_CLIP.fps) / REACTION_CLIP.fps;
}

/** "30s", "’90s", "1980s": a bare `s` straight after a whole ten (or an apostrophe before the number). */
function isDecade(match: RegExpMatchArray): boolean {
  const [, apostrophe, number, space, unit] = match;
  if (unit!.toLowerCase() !== 's' || space) return false;
  return apostrophe !== '' || (/^\d+$/.test(number!) && Number(number) >= 10 && Number(number) % 10 === 0);
}

export function emotionFromPrompt(prompt: string): ReactionRead {
  const text = prompt.slice(0, 2000);
  const words = promptWords(text);
  const scores = new Map<Emotion, { score: number; first: number; matched: string[] }>();
  const add = (emotion: Emotion, points: number, position: number, what: string) => {
    const s = scores.get(emotion) ?? { score: 0, first: Number.POSITIVE_INFINITY, matched: [] };
    s.score += points;
    s.first = Math.min(s.first, position);
    s.matched.push(what);
    scores.set(emotion, s);
  };

  for (const emotion of ORDER) {
    for (const phrase of VOCABULARY[emotion]) {
      const weight = WEAK.has(phrase) ? 0.5 : phrase.includes(' ') ? 2 : 1;
      for (const i of occurrences(words, phrase)) {
        // "not happy", "no way" aside: a negated feeling is not the feeling.
        const before = words[i - 1];
        if (before && NEGATIONS.has(before) && phrase !== 'no way') continue;
        add(emotion, weight, i, phrase);
      }
    }
  }
  for (const [emoji, emotion] of EMOJI) {
    const at = text.indexOf(emoji);
    // An emoji is a clear statement of the feeling: it weighs like a phrase.
    if (at >= 0) add(emotion, 2, words.length, emoji);
  }
  // "Really?" is doubt; "really" on its own only makes the next word stronger.
  if (/\breally\s*\?/i.test(text)) add('skeptical', 2, 0, 'really?');

  let best: Emotion = DEFAULT_EMOTION;
  let bestScore = 0;
  let bestFirst = Number.POSITIVE_INFINITY;
  let matched: string[] = [];
  for (const emotion of ORDER) {
    const s = scores.get(emotion);
    if (!s) continue;
    // Highest score wins; on a tie, the feeling named first.
    if (s.score > bestScore || (s.score === bestScore && s.first < bestFirst)) {
      best = emotion;
      bestScore = s.score;
      bestFirst = s.first;
      matched = s.matched;
    }
  }

  let intensity = 0.9;
  if (STRONG.some((w) => occurrences(words, w).length > 0) || /!{2,}|[A-Z]{4,}/.test(text)) intensity = 1;
  if (MILD.some((w) => occurrences(words, w).length > 0)) intensity = 0.65;
  return { emotion: best, intensity, durationS: durationFromPrompt(text), matched };
}
