/**
 * The in-process face finder's clip questions (the local stack's), on real pictures: a real face
 * clip has an eyes-to-mouth box around its face, a plain colour clip has none.
 */
import { promises as fsp } from 'node:fs';
import { humanClipFaces } from '#adapters/media/human-clip-faces';
import { findFaceBox, probeMedia } from '#render';
import { faceReferenceClip } from '#test-support/jobs';
import { plainColourClip } from '#test-support/plain-clip';

let faceClip: string;
let plain: { file: string; dir: string };
beforeAll(async () => {
  faceClip = await faceReferenceClip({ durationS: 4 });
  plain = await plainColourClip();
}, 60_000);
afterAll(() => fsp.rm(plain.dir, { recursive: true, force: true }));

describe('faceBoxInClip', () => {
  test("a real face clip: the eyes-to-mouth box, inside the whole face human finds, in the clip's pixels", async () => {
    const probed = await probeMedia(faceClip);
    if (!probed.ok) throw new Error(`the face clip does not probe: ${probed.detail}`);
    const { displayWidth: width, displayHeight: height } = probed.media.video!;
    const box = await humanClipFaces.faceBoxInClip(faceClip);
    const face = await findFaceBox(faceClip, { region: 'face' });
    expect(box).not.toBeNull();
    expect(face).not.toBeNull();
    // Inside the frame, and inside the whole face: the eyes and lips are part of the mesh.
    expect(box!.x).toBeGreaterThanOrEqual(face!.x);
    expect(box!.y).toBeGreaterThanOrEqual(face!.y);
    expect(box!.x + box!.width).toBeLessThanOrEqual(face!.x + face!.width);
    expect(box!.y + box!.height).toBeLessThanOrEqual(face!.y + face!.height);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width!);
    expect(box!.y + box!.height).toBeLessThanOrEqual(height!);
    // ...but not a sliver of it: from the eyes to the mouth is most of a face's middle, over a head that sways.
    expect(box!.width).toBeGreaterThan(face!.width * 0.4);
    expect(box!.height).toBeGreaterThan(face!.height * 0.3);
    // The reference sets the face in the upper half of the frame, across its middle.
    expect(box!.x + box!.width / 2).toBeGreaterThan(width! * 0.3);
    expect(box!.x + box!.width / 2).toBeLessThan(width! * 0.7);
    expect(box!.y + box!.height / 2).toBeLessThan(height! * 0.6);
  }, 60_000);

  test('a plain colour clip: null, no face', async () => {
    expect(await humanClipFaces.faceBoxInClip(plain.file)).toBeNull();
  }, 60_000);

  test('a file that is no video is invalid_input, not "no face"', async () => {
    const notVideo = `${plain.dir}/not-a-video.mp4`;
    await fsp.writeFile(notVideo, 'not a video at all');
    await expect(humanClipFaces.faceBoxInClip(notVideo)).rejects.toMatchObject({ code: 'invalid_input' });
  }, 60_000);
});
