/** An image's size as a viewer shows it: EXIF orientations 5-8 swap width and height. */
import sharp from 'sharp';
import { EngineError } from '#ports/engine';
import { uprightSize } from '#functions/render/face/upright-size';

const jpeg = (orientation: number) =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: '#336699' } })
    .jpeg()
    .withMetadata({ orientation })
    .toBuffer();

test('a landscape photo stored as shot is as wide as stored', async () => {
  expect(await uprightSize(await jpeg(1), 'The image')).toEqual({ width: 40, height: 20 });
});

test.each([5, 6, 7, 8])('orientation %i (turned a quarter) swaps width and height', async (orientation) => {
  expect(await uprightSize(await jpeg(orientation), 'The image')).toEqual({ width: 20, height: 40 });
});

test('bytes that are not an image are refused as invalid input, naming the image', async () => {
  const refusal = uprightSize(Buffer.from('not an image at all'), 'The avatar image');
  await expect(refusal).rejects.toBeInstanceOf(EngineError);
  await expect(refusal).rejects.toMatchObject({ code: 'invalid_input', message: 'The avatar image could not be read' });
});
