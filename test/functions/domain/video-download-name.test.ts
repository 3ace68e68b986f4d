/** The file name a downloaded video is saved under (download_url's Content-Disposition). */
import { videoDownloadName } from '#domain/video';

const named = (productName: string | null, hookText: string | null) => ({ productName, hookText });

describe('videoDownloadName', () => {
  test('the product and the hook, as the studio titles the video, in plain lower-case words', () => {
    expect(videoDownloadName(7, named('Glow Serum', 'Wait for it'))).toBe('glow-serum-wait-for-it.mp4');
  });

  test('accents are dropped, punctuation, quotes, slashes and emoji become one hyphen', () => {
    expect(videoDownloadName(7, named('Crème "Nuit"', 'POV: 7am / no filter 😍!'))).toBe('creme-nuit-pov-7am-no-filter.mp4');
    expect(videoDownloadName(7, named('..\\..\\etc', 'passwd\r\nX-Evil: 1'))).toBe('etc-passwd-x-evil-1.mp4');
  });

  test('without a hook, the product and the video; without a product, the hook', () => {
    expect(videoDownloadName(7, named('Glow Serum', null))).toBe('glow-serum-video-7.mp4');
    expect(videoDownloadName(7, named(null, 'Wait for it'))).toBe('wait-for-it.mp4');
  });

  test('nothing that spells a word (or nothing known): the video number', () => {
    expect(videoDownloadName(7)).toBe('reaction-video-7.mp4');
    expect(videoDownloadName(7, named('😍😍', '日本語'))).toBe('reaction-video-7.mp4');
  });

  test('at most 80 characters before .mp4, never ending on a hyphen', () => {
    const name = videoDownloadName(7, named('Glow Serum', 'a '.repeat(100)));
    expect(name.length).toBeLessThanOrEqual(84);
    expect(name).toMatch(/^glow-serum(-a)+\.mp4$/);
  });
});
