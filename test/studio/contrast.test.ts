/**
 * Text on the studio's own colours meets WCAG AA (4.5:1 for body text), as the theme resolves them:
 * studio/src/app/theme.ts overrides what Mantine's defaults get wrong.
 */
import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { cssVariablesResolver, theme } from '../../studio/src/app/theme';

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
};

const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(resolved).light;
const violet = resolved.colors.violet;

describe('violet light and subtle buttons (the hook ideas\u2019 "Use")', () => {
  // Their text is violet.9 (Mantine's light-color), at rest on white or violet.1, hovered on the light-hover.
  const text = violet[9];
  const hover = light['--mantine-color-violet-light-hover']!;

  test('hovered, the text stays at 4.5:1 or more (Mantine\u2019s violet.2 gave 4.26:1)', () => {
    expect(contrast(text, violet[2])).toBeLessThan(4.5);
    expect(contrast(text, hover)).toBeGreaterThanOrEqual(4.5);
  });

  test('the hover is still darker than the light variant at rest, so hovering shows', () => {
    expect(luminance(hover)).toBeLessThan(luminance(violet[1]));
    expect(contrast(text, violet[1])).toBeGreaterThanOrEqual(4.5);
  });
});

test('dimmed text is gray.7, 4.5:1 or more on white', () => {
  expect(light['--mantine-color-dimmed']).toBe(resolved.colors.gray[7]);
  expect(contrast(resolved.colors.gray[7], '#ffffff')).toBeGreaterThanOrEqual(4.5);
});
