/**
 * The font files captions are drawn with, found by module resolution (never fetched). One list for
 * the renderer and for the Lambda layer that ships them (esbuild cannot bundle font files): each
 * entry names its package, the folder inside it and the files.
 *
 * Emoji are Twemoji's COLR font (Mozilla's build, the one Firefox ships): one 0.5 MB woff2 that Skia
 * draws in colour. Noto Color Emoji's package took 24 MB of the install for the same glyphs, and
 * Skia draws nothing from its woff2 files.
 */
export const CAPTION_FONTS = {
  // ExtraBold (800) for every style, Black (900) for bold_caps.
  text: { packageName: '@fontsource/montserrat', folder: 'files', files: /^montserrat-.+-(800|900)-normal\.woff2$/ },
  emoji: { packageName: 'twemoji-colr-font', folder: '', files: /^twemoji\.woff2$/ },
} as const;
