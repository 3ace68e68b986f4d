import { createVideoBatchInput, videoVariantsOf } from '#domain/schemas/video-batch';
import { parseInput } from '#http/validate';

const reuse = (hook: string) => ({ method: 'reuse', reaction_id: 4, hook_text: hook });
const variantsOf = (body: unknown) => videoVariantsOf(parseInput(createVideoBatchInput, body, 'batch request'));

describe('POST /videos/batch input', () => {
  test('each variant becomes a video request of the batch\'s product, defaults filled in, in order', () => {
    const variants = variantsOf({ product_id: 3, variants: [reuse('One'), { ...reuse('Two'), product_id: 3, mode: 'preview' }] });
    expect(variants.map((v) => [v.request.productId, v.request.method, v.request.mode, v.request.hookText, v.request.reactionId])).toEqual([
      [3, 'reuse', 'auto', 'One', 4],
      [3, 'reuse', 'preview', 'Two', 4],
    ]);
    expect(variants.map((v) => v.referenceUploadId)).toEqual([null, null]);
  });

  test('1 to 20 variants: none or 21 is 400', () => {
    expect(variantsOf({ product_id: 3, variants: Array.from({ length: 20 }, (_, i) => reuse(`Hook ${i}`)) })).toHaveLength(20);
    for (const count of [0, 21]) {
      expect(() => variantsOf({ product_id: 3, variants: Array.from({ length: count }, (_, i) => reuse(`Hook ${i}`)) })).toThrow(
        expect.objectContaining({ code: 'bad_request', message: 'Invalid batch request: variants: must hold 1 to 20 variants' }),
      );
    }
    expect(() => variantsOf({ product_id: 3, variants: 'all' })).toThrow(expect.objectContaining({ code: 'bad_request' }));
  });

  test('a refusal names the variant: a field, a method rule, another product, an upload named twice', () => {
    const refusal = (variants: unknown[]) => {
      try {
        variantsOf({ product_id: 3, variants });
      } catch (error) {
        return error as { code: string; message: string };
      }
      throw new Error('accepted');
    };
    expect(refusal([reuse('One'), { ...reuse('Two'), hook_size: 'huge' }]).message).toMatch(/^Invalid batch request: variants\.1\.hook_size: must be one of/);
    expect(refusal([reuse('One'), reuse('Two'), { method: 'prompt' }]).message).toBe('Invalid batch request: variants[2]: method=prompt needs prompt');
    expect(refusal([reuse('One'), { ...reuse('Two'), product_id: 5 }]).message).toMatch(/^Invalid batch request: variants\[1\]\.product_id must be the batch's product_id \(3\)/);
    const motion = { method: 'motion', avatar_id: 1, video_source: 'upload', reference_video_upload_id: '0b5e7a1c-2d3f-4a5b-8c9d-0e1f2a3b4c5d' };
    expect(refusal([motion, reuse('Two'), motion]).message).toBe("Invalid batch request: variants[2].reference_video_upload_id is also variants[0]'s; an upload is used once");
    expect(refusal([{ method: 'motion', avatar_id: 1, video_source: 'link', reference_url: 'http://example.com/a.mp4' }]).message).toMatch(/^Invalid batch request: variants\[0\]\.reference_url /);
    expect(refusal([{ ...reuse('One'), reference_video: 'x' }])).toMatchObject({ code: 'bad_request', message: expect.stringContaining('unknown field(s): reference_video') });
  });
});
