/** A take in words: its number, whether the job stands on it, and what made it differ from the take before. Pure. */
import type { Take } from '#client/types';

/** The take the job stands on, else the newest (approve's own default). */
export function defaultTake(takes: Pick<Take, 'take' | 'current'>[]): number | null {
  return (takes.find((take) => take.current) ?? takes[takes.length - 1])?.take ?? null;
}

const OPTION_WORDS: [keyof Take['options'], string][] = [
  ['prompt', 'prompt'],
  ['avatar_id', 'avatar'],
  ['reference_url', 'reference'],
  ['hook_style', 'caption style'],
  ['hook_duration', 'caption duration'],
  ['sound', 'sound'],
  ['music_id', 'music'],
  ['voice_line', 'voice line'],
];

/** "Take 2 · new seed", "Take 3 · prompt and sound changed": what differs from the take before it. */
export function takeLabel(take: Pick<Take, 'take' | 'options'>, before: Pick<Take, 'options'> | undefined): string {
  if (!before) return `Take ${take.take} · first`;
  const changed = OPTION_WORDS.filter(([key]) => take.options[key] !== before.options[key]).map(([, words]) => words);
  if (!changed.length) return `Take ${take.take} · new seed`;
  const list = changed.length === 1 ? changed[0] : `${changed.slice(0, -1).join(', ')} and ${changed[changed.length - 1]}`;
  return `Take ${take.take} · ${list} changed`;
}
