/** How avatars are named in the grid and the pickers (studio/src/pages/avatars/avatar-name.ts). */
import { avatarName, avatarOption } from '../../studio/src/pages/avatars/avatar-name';

const stock = { id: 1_000_000_001, source: 'prompt' as const, prompt: 'a smiling young woman with long curly brown hair and a yellow hoodie', stock: true };

test('an avatar is named by its prompt, an uploaded one by its photo', () => {
  expect(avatarName(stock)).toBe(stock.prompt);
  expect(avatarName({ id: 12, source: 'upload', prompt: null })).toBe('Uploaded photo #12');
});

test("a picker marks stock avatars as such and leaves out their ids, which are the service's", () => {
  expect(avatarOption(stock)).toBe('Stock · a smiling young woman with long curly brown hair and a yell…');
  expect(avatarOption(stock)).not.toContain('1000000001');
  expect(avatarOption({ ...stock, id: 4, stock: false, prompt: 'a chef' })).toBe('#4 · a chef');
  expect(avatarOption({ id: 12, source: 'upload', prompt: null, stock: false })).toBe('Uploaded photo #12');
});

test('a long prompt is cut at a whole character, emoji included', () => {
  const option = avatarOption({ id: 5, source: 'prompt', prompt: `${'x'.repeat(58)}😀😀😀`, stock: false }, 60);
  expect(option).toBe(`#5 · ${'x'.repeat(58)}😀…`);
});
