import * as z from 'zod/mini';

/**
 * An id inside a request body: a JSON integer, or (form and multipart fields are text) a string of
 * digits. Anything else is a 400 naming the field.
 */
export const idField = z.union([
  z.int({ error: 'must be a positive integer' }).check(
    z.positive('must be a positive integer'),
    // Classic zod's `.max()` took the schema's message; a check added with .check() needs its own.
    z.maximum(Number.MAX_SAFE_INTEGER, 'must be a positive integer'),
  ),
  z.pipe(z.string().check(z.regex(/^[1-9][0-9]{0,14}$/, 'must be a positive integer')), z.transform(Number)),
], { error: 'must be a positive integer' });

/**
 * Characters no text field takes: C0 and C1 controls (NUL, BEL, ESC... they corrupt logs, terminals
 * and captions) and the bidirectional embedding, override and isolate controls (U+202A-U+202E,
 * U+2066-U+2069), which make a caption or a name read otherwise than it was typed. Line breaks and
 * tabs only where the field has lines.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN_CONTROLS_IN_LINE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN_CONTROLS_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/u;

const CONTROL_CHARACTERS_MESSAGE = {
  line: 'must not contain line breaks, control characters or bidirectional override/isolate characters (U+202A-U+202E, U+2066-U+2069)',
  text: 'must not contain control characters (line breaks and tabs are fine) or bidirectional override/isolate characters (U+202A-U+202E, U+2066-U+2069)',
} as const;

/** A check for a string field: `line` for one line of text (names, ids), `text` where line breaks are welcome. */
export const withoutControlCharacters = (kind: 'line' | 'text') =>
  z.refine<string>(
    (value) => !(kind === 'line' ? HIDDEN_CONTROLS_IN_LINE : HIDDEN_CONTROLS_IN_TEXT).test(value),
    CONTROL_CHARACTERS_MESSAGE[kind],
  );

/**
 * A text field as most of the API takes one: trimmed, then not empty, at most `max` characters and
 * without hidden controls (`line` for one line: names, URLs; `text` where line breaks are welcome).
 */
export const trimmedText = (kind: 'line' | 'text', max: number) =>
  z
    .string({ error: 'must be a string' })
    .check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`), withoutControlCharacters(kind));

/** An enum whose refusal lists the values it takes. */
export const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` });

/**
 * An enum whose values each mean something a client acts on (a job's status, a post's): each value is
 * explained in the description, and again as `x-enumDescriptions` (what Redoc shows beside the values).
 */
export function describedEnum<const T extends readonly [string, ...string[]]>(values: T, meanings: Readonly<Record<T[number], string>>, lead?: string) {
  const list = values.map((value: T[number]) => `- \`${value}\`: ${meanings[value]}`).join('\n');
  return z.enum(values).check(z.meta({ description: lead ? `${lead}\n\n${list}` : list, 'x-enumDescriptions': { ...meanings } }));
}
