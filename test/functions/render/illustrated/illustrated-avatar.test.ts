
import sharp from 'sharp';
import { rigFromPrompt } from '#render';
import { avatarLayers, avatarSvg, renderAvatarPng, splitAvataaarsBody } from '#functions/render/illustrated/illustrated-avatar';
import {
  ACCESSORIES,
  CLOTHING,
  FACIAL_HAIR,
  TOPS,
  restingParts,
  type IllustratedRig,
} from '#functions/render/illustrated/illustrated-rig';

describe('drawing an illustrated avatar', () => {
  test("the prompt's expression is the portrait's face; without one it smiles lightly", async () => {
    const plain = rigFromPrompt('a man with glasses', 12);
    const grumpy = rigFromPrompt('a grumpy man with glasses', 12);
    expect(restingParts(plain)).toEqual({ eyes: 'default', eyebrows: expect.stringMatching(/^default/), mouth: 'smile' });
    expect(restingParts(grumpy)).toEqual({ eyes: 'squint', eyebrows: expect.stringMatching(/^angry/), mouth: 'concerned' });
    expect((await renderAvatarPng(plain, 256)).equals(await renderAvatarPng(grumpy, 256))).toBe(false);
  });

  test('the same seed gives byte-identical PNGs; another seed another picture', async () => {
    const a = await renderAvatarPng(rigFromPrompt('woman with curly hair', 77), 1024);
    const b = await renderAvatarPng(rigFromPrompt('woman with curly hair', 77), 1024);
    const c = await renderAvatarPng(rigFromPrompt('woman with curly hair', 78), 1024);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(c)).toBe(false);
    const meta = await sharp(a).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'png', width: 1024, height: 1024 });
  });

  test('the portrait is the rig: its colours are in the picture', async () => {
    const rig = rigFromPrompt('man in a red hoodie on a blue background', 4);
    const png = await renderAvatarPng(rig, 256);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3).toString('hex');
    // Top-left corner: background; bottom middle, off-centre: the hoodie.
    expect(at(4, 4)).toBe('b6e3f4');
    expect(at(70, 250)).toBe('ff5c5c');
  });

  test('another expression changes the face parts and nothing else', async () => {
    const rig = rigFromPrompt('a person with glasses and a beard', 1);
    const resting = splitAvataaarsBody(await avatarSvg(rig, restingParts(rig), { background: false }))!;
    const shocked = splitAvataaarsBody(await avatarSvg(rig, { eyes: 'surprised', eyebrows: 'raisedExcited', mouth: 'screamOpen' }, { background: false }))!;
    for (const part of ['eyes', 'eyebrows', 'mouth'] as const) expect(shocked.groups[part]).not.toBe(resting.groups[part]);
    for (const part of ['clothing', 'nose', 'top', 'facialHair', 'accessories'] as const) expect(shocked.groups[part]).toBe(resting.groups[part]);
    expect(shocked.skinFill).toBe(`#${rig.options.skinColor[0]}`);
  });

  test('every hairstyle, outfit, beard and accessory splits into a body and a head layer', async () => {
    const failures: string[] = [];
    for (let i = 0; i < TOPS.length; i++) {
      const base = rigFromPrompt('someone', i);
      const rig: IllustratedRig = {
        ...base,
        options: {
          ...base.options,
          top: [TOPS[i]!],
          topProbability: 100,
          clothing: [CLOTHING[i % CLOTHING.length]!],
          facialHair: [FACIAL_HAIR[i % FACIAL_HAIR.length]!],
          facialHairProbability: 100,
          accessories: [ACCESSORIES[i % ACCESSORIES.length]!],
          accessoriesProbability: 100,
        },
      };
      const layers = await avatarLayers(rig, restingParts(rig));
      if (!layers) failures.push(TOPS[i]!);
      else {
        expect(layers.body).toContain('clip-path');
        expect(layers.head).toContain(`fill="#${rig.options.skinColor[0]}"`);
      }
    }
    expect(failures).toEqual([]);
  });
});
