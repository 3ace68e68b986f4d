import * as z from 'zod/mini';
import { createProductInput, updateProductInput } from '#domain/schemas/product';
import { avatarPrompt } from '#domain/schemas/avatar';
import { oneOf, trimmedText } from '#domain/schemas/common';
import { approveVideoInput, createVideoInput, regenerateVideoInput } from '#domain/schemas/video';
import { createPostInput } from '#domain/social-post';
import { parseInput } from '#http/validate';

const HIDDEN = {
  NUL: '\u0000',
  BEL: '\u0007',
  ESC: '\u001b',
  DEL: '\u007f',
  'NEL (C1)': '\u0085',
  'CSI (C1)': '\u009b',
  'LRE (embedding)': '\u202a',
  'RLO (override)': '\u202e',
  'PDF (pop)': '\u202c',
  'LRI (isolate)': '\u2066',
  'PDI (isolate)': '\u2069',
};

/** Each text field of the API, and a valid input in which to plant a character. */
interface TextField {
  where: string;
  field: string;
  lines: boolean;
  schema: z.ZodMiniType;
  input: (text: string) => unknown;
}

const video = { product_id: 1, method: 'prompt', prompt: 'shocked' };
const post = { provider: 'provider_a', video_id: 1, account_ids: ['ch1'] };
const FIELDS: TextField[] = [
  { where: 'POST /products name', field: 'name', lines: false, schema: createProductInput, input: (t) => ({ name: `Glow ${t} serum` }) },
  { where: 'PATCH /products description', field: 'description', lines: true, schema: updateProductInput, input: (t) => ({ description: `Brightens ${t} skin` }) },
  { where: 'POST /avatars prompt', field: 'prompt', lines: true, schema: z.strictObject({ prompt: avatarPrompt }), input: (t) => ({ prompt: `a woman ${t} with red hair` }) },
  { where: 'POST /videos prompt', field: 'prompt', lines: true, schema: createVideoInput, input: (t) => ({ ...video, prompt: `shocked ${t} by it` }) },
  { where: 'POST /videos hook_text', field: 'hook_text', lines: true, schema: createVideoInput, input: (t) => ({ ...video, hook_text: `Wait ${t} for it` }) },
  { where: 'approve hook_text', field: 'hook_text', lines: true, schema: approveVideoInput, input: (t) => ({ hook_text: `Wait ${t} for it` }) },
  { where: 'regenerate prompt', field: 'prompt', lines: true, schema: regenerateVideoInput, input: (t) => ({ prompt: `laughing ${t} hard` }) },
  { where: 'regenerate reference_url', field: 'reference_url', lines: false, schema: regenerateVideoInput, input: (t) => ({ reference_url: `https://www.tiktok.com/@a/video/1${t}` }) },
  { where: 'POST /social/posts caption', field: 'caption', lines: true, schema: createPostInput, input: (t) => ({ ...post, caption: `New ${t} drop` }) },
  { where: 'POST /social/posts account_ids', field: 'account_ids.0', lines: false, schema: createPostInput, input: (t) => ({ ...post, account_ids: [`ch${t}1`] }) },
];

describe('text fields refuse hidden control characters with a 400 naming the field', () => {
  describe.each(FIELDS)('$where', ({ field, lines, schema, input }) => {
    test.each(Object.entries(HIDDEN))('%s is refused', (_, character) => {
      expect(() => parseInput(schema, input(character))).toThrow(expect.objectContaining({ status: 400, code: 'bad_request' }));
      expect(() => parseInput(schema, input(character))).toThrow(new RegExp(`${field.replace('.', '\\.')}: must not contain`));
    });

    test(lines ? 'line breaks and tabs are fine' : 'line breaks and tabs are refused', () => {
      for (const brk of ['\n', '\r\n', '\t']) {
        if (lines) expect(() => parseInput(schema, input(brk))).not.toThrow();
        else expect(() => parseInput(schema, input(brk))).toThrow(/must not contain line breaks/);
      }
    });

    test('ordinary text, emoji and right-to-left letters are fine', () => {
      for (const text of ['ok', '😱🔥', 'שלום', 'مرحبا', 'e\u0301', '\u200d']) expect(() => parseInput(schema, input(text))).not.toThrow();
    });
  });
});

describe('trimmedText: the common text field', () => {
  const field = z.strictObject({ name: trimmedText('line', 5) });

  test('is trimmed, then taken up to its length', () => {
    expect(parseInput(field, { name: '  abcde  ' })).toEqual({ name: 'abcde' });
  });

  test('refuses empty (after trimming), too long, and not a string, each with its reason', () => {
    expect(() => parseInput(field, { name: '   ' })).toThrow(/name: must not be empty/);
    expect(() => parseInput(field, { name: 'abcdef' })).toThrow(/name: must be at most 5 characters/);
    expect(() => parseInput(field, { name: 5 })).toThrow(/name: must be a string/);
  });

  test('`line` refuses line breaks, `text` takes them', () => {
    expect(() => parseInput(field, { name: 'a\nb' })).toThrow(/must not contain line breaks/);
    expect(parseInput(z.strictObject({ body: trimmedText('text', 5) }), { body: 'a\nb' })).toEqual({ body: 'a\nb' });
  });
});

describe('oneOf: an enum whose refusal lists its values', () => {
  test('takes a listed value and refuses another, naming what it takes', () => {
    const field = z.strictObject({ size: oneOf(['small', 'large']) });
    expect(parseInput(field, { size: 'large' })).toEqual({ size: 'large' });
    expect(() => parseInput(field, { size: 'huge' })).toThrow(/size: must be one of small, large/);
  });
});
