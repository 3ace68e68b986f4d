/**
 * The studio cannot import the service (a browser app sees only the API), so its limits live in one
 * studio module (studio/src/intake/limits.ts) that counters, file checks and hints read. Here they are
 * held to the service's own: each text limit by what the API's schema takes (the longest text the
 * studio counts as within the limit passes, one character more is refused), each file rule by the
 * API's upload rules and media checks.
 */
import * as z from 'zod/mini';
import { AVATAR_IMAGE_RULES, DEMO_VIDEO_RULES } from '#render';
import { MUSIC_LIMITS } from '#domain/music';
import { DEMO_LENGTH } from '#domain/demo-intake';
import { REFERENCE_CLIP_LIMITS } from '#ports/reference-resolver';
import { CAPTION_LIMITS, CAPTION_MAX, createPostInput } from '#domain/social-post';
import { UPLOAD_RULES } from '#domain/upload-record';
import { createAvatarFromPrompt } from '#domain/schemas/avatar';
import { createKeyInput, signUpInput } from '#domain/schemas/accounts';
import { createProductInput, updateProductInput } from '#domain/schemas/product';
import { approveVideoInput, createVideoInput, regenerateVideoInput } from '#domain/schemas/video';
import { CAPTION_LIMITS as STUDIO_CAPTION_LIMITS, captionLimitOf, FILE_RULES, TEXT_LIMITS, type TextLimit } from '../../studio/src/intake/limits';
import { countOf } from '../../studio/src/intake/text-count';

type Limited = keyof typeof TEXT_LIMITS;

/** Where the API takes each limited field: a body with the text in it. */
const FIELDS: Record<Limited, [z.ZodMiniType, (text: string) => unknown][]> = {
  hookText: [
    [createVideoInput, (text) => ({ product_id: 1, method: 'prompt', prompt: 'shocked', hook_text: text })],
    [approveVideoInput, (text) => ({ hook_text: text })],
  ],
  voiceLine: [
    [createVideoInput, (text) => ({ product_id: 1, method: 'prompt', prompt: 'shocked', voice_line: text })],
    [regenerateVideoInput, (text) => ({ voice_line: text })],
  ],
  reactionPrompt: [
    [createVideoInput, (text) => ({ product_id: 1, method: 'prompt', prompt: text })],
    [regenerateVideoInput, (text) => ({ prompt: text })],
  ],
  avatarPrompt: [[createAvatarFromPrompt, (text) => ({ prompt: text })]],
  productName: [
    [createProductInput, (text) => ({ name: text })],
    [updateProductInput, (text) => ({ name: text })],
  ],
  productDescription: [
    [createProductInput, (text) => ({ name: 'Glow', description: text })],
    [updateProductInput, (text) => ({ description: text })],
  ],
  keyName: [[createKeyInput, (text) => ({ name: text })]],
  personName: [[signUpInput, (text) => ({ email: 'ada@example.com', password: 'correct horse battery', name: text })]],
};

/**
 * A text the studio counts as `count` characters, built to tell counting schemes apart: spaces around
 * it (trimmed by the API), emoji (two UTF-16 units, one code point) and an accent that is a code point
 * of its own (e + U+0301).
 */
function textCounted(limit: TextLimit, count: number): string {
  const body = '😀😀😀e\u0301';
  const used = countOf(limit, body);
  const text = count < used ? `  ${'a'.repeat(count)}  ` : `  ${body}${'a'.repeat(count - used)}  `;
  expect(countOf(limit, text)).toBe(count);
  return text;
}

describe.each(Object.keys(TEXT_LIMITS) as Limited[])('%s: the counter and the API agree', (field) => {
  const limit = TEXT_LIMITS[field];
  test.each(FIELDS[field].map(([schema, body], index) => [index, schema, body] as const))('body %i: the limit passes, one more is refused', (_index, schema, body) => {
    expect(z.safeParse(schema, body(textCounted(limit, limit.max))).success).toBe(true);
    expect(z.safeParse(schema, body(textCounted(limit, limit.max + 1))).success).toBe(false);
    if (limit.min) expect(z.safeParse(schema, body(textCounted(limit, limit.min - 1))).success).toBe(false);
  });
});

describe("a post's caption", () => {
  test("the networks' limits are the API's own table", () => {
    expect(STUDIO_CAPTION_LIMITS).toBe(CAPTION_LIMITS);
  });

  test('is counted as the API counts it: in code points, spaces included', () => {
    const post = (caption: string) => ({ provider: 'provider_a', video_id: 1, account_ids: ['c1'], caption });
    const limit = captionLimitOf(CAPTION_MAX);
    const longest = `${'😀'.repeat(10)} ${'a'.repeat(CAPTION_MAX - 11)}`;
    expect(countOf(limit, longest)).toBe(CAPTION_MAX);
    expect(z.safeParse(createPostInput, post(longest)).success).toBe(true);
    expect(countOf(limit, `${longest} `)).toBe(CAPTION_MAX + 1);
    expect(z.safeParse(createPostInput, post(`${longest} `)).success).toBe(false);
  });
});

describe('file rules', () => {
  test.each(Object.keys(FILE_RULES) as (keyof typeof FILE_RULES)[])('%s: the size is the one POST /uploads takes', (purpose) => {
    expect(FILE_RULES[purpose].maxBytes).toBe(UPLOAD_RULES[purpose].maxBytes);
  });

  test.each(Object.keys(FILE_RULES) as (keyof typeof FILE_RULES)[])("%s: the media types are POST /uploads' own list", (purpose) => {
    expect(FILE_RULES[purpose].types).toBe(UPLOAD_RULES[purpose].contentTypes);
  });

  test('every file ending the studio maps to a type stands for a type of that rule', () => {
    for (const rule of Object.values(FILE_RULES)) for (const type of Object.values(rule.extensions)) expect(rule.types).toContain(type);
  });

  test("lengths, shapes and pixels are the API's media checks'", () => {
    expect(FILE_RULES.demo_video).toMatchObject({
      // What the API keeps of a demo at most, with its grace: a longer clip is trimmed in the form.
      maxDurationS: DEMO_LENGTH.maxKeptS,
      durationGraceS: DEMO_LENGTH.graceS,
      minSidePx: DEMO_VIDEO_RULES.minSidePx,
      portrait: true,
      // The API takes a landscape or square demo with `reframe`, and a part of a longer one with the trim points.
      reframable: true,
      trimmable: true,
    });
    expect(FILE_RULES.reference_video.maxDurationS).toBe(REFERENCE_CLIP_LIMITS.maxDurationS);
    // The reference check has no grace: 60.1 s is refused.
    expect(FILE_RULES.reference_video.durationGraceS).toBeUndefined();
    expect(FILE_RULES.music).toMatchObject({ maxDurationS: MUSIC_LIMITS.maxDurationS, durationGraceS: MUSIC_LIMITS.durationGraceS });
    expect(FILE_RULES.avatar_image).toMatchObject({ minSidePx: AVATAR_IMAGE_RULES.minSide, maxPixels: AVATAR_IMAGE_RULES.maxPixels });
  });
});
