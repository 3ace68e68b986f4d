/** What videos are called in lists and pages, and the file a download saves (studio/src/pages/videos/video-name.ts). */
import { downloadFileName, videoName } from '../../studio/src/pages/videos/video-name';

describe('videoName', () => {
  test('the product and the hook, not a number', () => {
    expect(videoName({ id: 7, productName: 'Glow Serum', hookText: 'Wait for the glow' })).toBe('Glow Serum · Wait for the glow');
  });

  test('without a hook, the product and the video; without either, the number', () => {
    expect(videoName({ id: 7, productName: 'Glow Serum', hookText: null })).toBe('Glow Serum · video 7');
    expect(videoName({ id: null, productName: 'Glow Serum', hookText: '  ' })).toBe('Glow Serum');
    expect(videoName({ id: null, productName: undefined, hookText: 'Wait' })).toBe('Wait');
    expect(videoName({ id: 7 })).toBe('Video #7');
  });
});

describe('downloadFileName', () => {
  test('the name as it reads, with .mp4', () => {
    expect(downloadFileName('Glow Serum · Wait for the glow 😍', 7)).toBe('Glow Serum · Wait for the glow 😍.mp4');
  });

  test('no character a system refuses in a file name, no control or direction character, no path', () => {
    expect(downloadFileName('A/B: "what?" <yes>|*\\ back', 7)).toBe('A B what yes back.mp4');
    expect(downloadFileName('evil\u202Egnp.exe\u0000\n', 7)).toBe('evilgnp.exe.mp4');
    expect(downloadFileName('../../etc/passwd', 7)).toBe('etc passwd.mp4');
  });

  test('no leading dot, no trailing dot or space, at most 100 characters without cutting an emoji', () => {
    expect(downloadFileName('...hidden. ', 7)).toBe('hidden.mp4');
    const long = downloadFileName(`${'a'.repeat(99)}😀😀`, 7);
    expect([...long.replace(/\.mp4$/, '')]).toHaveLength(100);
    expect(long.endsWith('a😀.mp4')).toBe(true);
  });

  test('a name that leaves nothing, or a device name Windows keeps, falls back to the id', () => {
    expect(downloadFileName('???', 7)).toBe('reaction-video-7.mp4');
    expect(downloadFileName('CON', 7)).toBe('reaction-video-7.mp4');
  });
});
