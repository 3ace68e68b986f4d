import { HOOK_FORMATS, productTraits, writeHooks } from '#adapters/engines/local-hook-writer';

const serum = { id: 1, name: 'Glow Serum', description: 'A vitamin C serum that fades dark spots in 2 weeks.' };
const app = { id: 2, name: 'FocusFlow', description: 'Productivity app that helps you finish deep work in 25 minute sprints' };

describe('the local hook writer', () => {
  test('writes ten ideas of at most 100 characters, in varied formats', () => {
    const ideas = writeHooks(serum, 1, 10);
    expect(ideas).toHaveLength(10);
    for (const idea of ideas) {
      expect(idea.text.length).toBeGreaterThan(0);
      expect(idea.text.length).toBeLessThanOrEqual(100);
      expect(HOOK_FORMATS).toContain(idea.format);
    }
    expect(new Set(ideas.map((i) => i.format)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(ideas.map((i) => i.text.toLowerCase())).size).toBe(10);
  });

  test('is deterministic for a seed and varies with it', () => {
    expect(writeHooks(serum, 7, 10)).toEqual(writeHooks(serum, 7, 10));
    expect(writeHooks(serum, 7, 10)).not.toEqual(writeHooks(serum, 8, 10));
  });

  test('is grounded in the product: its name, and what the description says it does', () => {
    const ideas = writeHooks(serum, 3, 10).map((i) => i.text);
    expect(ideas.filter((t) => t.includes('Glow Serum') || t.includes('dark spots') || t.includes('serum')).length).toBeGreaterThanOrEqual(8);
    const other = writeHooks(app, 3, 10).map((i) => i.text);
    expect(other.some((t) => t.includes('Glow Serum'))).toBe(false);
    expect(other.some((t) => t.includes('deep work'))).toBe(true);
  });

  test('reads the benefit in the base form, so templates stay grammatical', () => {
    expect(productTraits(serum)).toMatchObject({ benefit: 'fade dark spots in 2 weeks', category: 'serum', figure: '2 weeks' });
    expect(productTraits(app)).toMatchObject({ benefit: 'finish deep work in 25 minute sprints', category: 'app' });
  });

  test('a product without a description still gets ten ideas', () => {
    expect(writeHooks({ id: 3, name: 'Trail Runner X', description: null }, 5, 10)).toHaveLength(10);
  });

  test('very long names and descriptions are shortened at word boundaries, never past 100 characters', () => {
    const long = {
      id: 4,
      name: 'The Extraordinarily Comfortable Ultralight Waterproof Hiking Boot Collection Deluxe Edition',
      description: `Boots that keep your feet dry ${'through rivers, snow, mud and the worst weather '.repeat(5)}`,
    };
    const ideas = writeHooks(long, 9, 10);
    expect(ideas).toHaveLength(10);
    for (const idea of ideas) {
      expect(idea.text.length).toBeLessThanOrEqual(100);
      expect(idea.text).not.toMatch(/\s$/);
    }
  });
});
