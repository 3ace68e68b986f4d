/**
 * The font files captions are drawn with, found by module resolution (never fetched). One list for
 * the renderer and for the Lambda layer that ships them (esbuild cannot bundle font files). The
 * emoji package's .woff2 files render nothing in Skia; its .woff ones carry the colour glyphs.
 */
export const CAPTION_FONTS = {
  // ExtraBold (800) for every style, Black (900) for bold_caps.
  text: { packageName: '@fontsource/montserrat', files: /^montserrat-.+-(800|900)-normal\.woff2$/ },
  emoji: { packageName: '@fontsource/noto-color-emoji', files: /^noto-color-emoji-.+-400-normal\.woff$/ },
} as const;
