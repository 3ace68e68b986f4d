/**
 * The font files the sample clip's app screens are drawn with, found by module resolution (never
 * fetched): Montserrat SemiBold for body text, ExtraBold for titles, Latin only (every word on the
 * screens is English). One list for the drawing and for the Lambda layer and image that ship them.
 */
export const SAMPLE_FONTS = {
  text: { packageName: '@fontsource/montserrat', folder: 'files', files: /^montserrat-latin-(600|800)-normal\.woff2$/ },
} as const;
