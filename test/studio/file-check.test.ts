/**
 * Files judged in the browser before any byte is sent (studio/src/intake/file-check.ts): the kind and
 * size from the file, the length and shape from what the browser read of it, and the limits a person
 * reads next to the field before choosing.
 */
import { acceptOf, declaredType, hintOf, judgeFile, judgeMedia } from '../../studio/src/intake/file-check';
import { FILE_RULES } from '../../studio/src/intake/limits';

const MB = 1024 * 1024;
const demo = FILE_RULES.demo_video;

describe('the limits stated next to each field', () => {
  test('the demo field says WebM is accepted, that a landscape or square one is reframed, how large it may be and how much of it is kept', () => {
    expect(hintOf(demo)).toBe('MP4, MOV, AVI or WebM; portrait, or landscape and square ones reframed to 9:16; at most 50 MB; up to 3 minutes of it kept');
  });

  test('avatar, reference and music fields state theirs', () => {
    expect(hintOf(FILE_RULES.avatar_image)).toBe('JPEG, PNG or WebP; at least 340×340 px; at most 10 MB');
    expect(hintOf(FILE_RULES.reference_video)).toBe('MP4, MOV, WebM or AVI; at most 60 s and 100 MB');
    expect(hintOf(FILE_RULES.music)).toBe('MP3, M4A/AAC, WAV, OGG/Opus or FLAC; at most 10 minutes and 20 MB');
  });

  test("the file picker offers the rule's types and file endings", () => {
    expect(acceptOf(FILE_RULES.avatar_image)).toBe('image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp');
  });
});

describe('kind and size, before reading the file', () => {
  test("a type the browser names otherwise than the API, or not at all, is told by the file's ending", () => {
    expect(declaredType(demo, { name: 'clip.MOV', type: '', size: 1 })).toBe('video/quicktime');
    expect(declaredType(demo, { name: 'clip.avi', type: 'video/avi', size: 1 })).toBe('video/x-msvideo');
    expect(declaredType(demo, { name: 'clip.webm', type: 'video/webm', size: 1 })).toBe('video/webm');
  });

  test('another kind of file is refused, naming the kinds that are taken', () => {
    expect(judgeFile(demo, { name: 'notes.pdf', type: 'application/pdf', size: 10 })).toBe('“notes.pdf” is not a kind of demo video that can be used: choose MP4, MOV, AVI or WebM.');
    expect(judgeFile(FILE_RULES.avatar_image, { name: 'face.gif', type: 'image/gif', size: 10 })).toMatch(/JPEG, PNG or WebP/);
  });

  test('too large or empty is refused with the sizes', () => {
    expect(judgeFile(demo, { name: 'long.mp4', type: 'video/mp4', size: 50 * MB + 1 })).toBe('“long.mp4” is 50 MB: a demo video may be at most 50 MB.');
    expect(judgeFile(demo, { name: 'big.mp4', type: 'video/mp4', size: 73.4 * MB })).toBe('“big.mp4” is 73 MB: a demo video may be at most 50 MB.');
    expect(judgeFile(demo, { name: 'empty.mp4', type: 'video/mp4', size: 0 })).toMatch(/is empty/);
    expect(judgeFile(demo, { name: 'ok.mp4', type: 'video/mp4', size: 50 * MB })).toBeNull();
  });
});

describe('length and shape, from what the browser read', () => {
  test('a landscape or square demo is taken: the form asks how to reframe it (demo-intake.ts)', () => {
    expect(judgeMedia(demo, 'wide.mp4', { width: 1920, height: 1080, durationS: 12 })).toBeNull();
    expect(judgeMedia(demo, 'square.mp4', { width: 720, height: 720, durationS: 12 })).toBeNull();
    expect(judgeMedia(demo, 'tall.mp4', { width: 1080, height: 1920, durationS: 12 })).toBeNull();
  });

  test('a shape rule that cannot be reframed still refuses, with the size and what to do', () => {
    const portraitOnly = { ...demo, reframable: false };
    expect(judgeMedia(portraitOnly, 'wide.mp4', { width: 1920, height: 1080, durationS: 12 })).toBe(
      '“wide.mp4” is landscape (1920×1080): the demo video must be portrait, taller than wide. Export it vertical, e.g. 1080×1920.',
    );
    expect(judgeMedia(portraitOnly, 'square.mp4', { width: 720, height: 720, durationS: 12 })).toMatch(/is square \(720×720\)/);
  });

  test('a demo over 3 minutes is taken, to be trimmed in the form; a length rule that cannot be trimmed keeps the grace and refuses past it', () => {
    expect(judgeMedia(demo, 'tall.mp4', { width: 1080, height: 1920, durationS: 200 })).toBeNull();
    const whole = { ...demo, trimmable: false };
    expect(judgeMedia(whole, 'tall.mp4', { width: 1080, height: 1920, durationS: 180.4 })).toBeNull();
    expect(judgeMedia(whole, 'tall.mp4', { width: 1080, height: 1920, durationS: 200 })).toBe('“tall.mp4” is 3:20 long: a demo video may be at most 3 minutes. Trim it, then choose it again.');
  });

  test('a reference over 60 s is refused with no grace; its shape is free', () => {
    expect(judgeMedia(FILE_RULES.reference_video, 'ref.mp4', { width: 1920, height: 1080, durationS: 60 })).toBeNull();
    expect(judgeMedia(FILE_RULES.reference_video, 'ref.mp4', { width: 1920, height: 1080, durationS: 60.2 })).toBe('“ref.mp4” is 1:00 long: a reference video may be at most 60 s. Trim it, then choose it again.');
  });

  test('too small a demo or photo is refused; too many megapixels too', () => {
    expect(judgeMedia(demo, 'tiny.mp4', { width: 180, height: 320, durationS: 5 })).toBe('“tiny.mp4” is 180×320: a demo video must be at least 240 px on each side.');
    expect(judgeMedia(FILE_RULES.avatar_image, 'me.jpg', { width: 300, height: 400 })).toMatch(/at least 340 px on each side/);
    expect(judgeMedia(FILE_RULES.avatar_image, 'me.jpg', { width: 8000, height: 6000 })).toMatch(/at most 40 megapixels/);
    expect(judgeMedia(FILE_RULES.avatar_image, 'me.jpg', { width: 1200, height: 1600 })).toBeNull();
  });

  test('a track over 10 minutes is refused', () => {
    expect(judgeMedia(FILE_RULES.music, 'song.mp3', { durationS: 601 })).toMatch(/is 10:01 long: a track may be at most 10 minutes/);
  });

  test('what the browser could not read is left to the API', () => {
    expect(judgeMedia(demo, 'clip.avi', {})).toBeNull();
    expect(judgeMedia(demo, 'clip.avi', { width: 0, height: 0 })).toBeNull();
  });
});
