import { createTheme, type CSSVariablesResolver } from '@mantine/core';

// Violet reads as the brand; dark enough shades keep text on it at WCAG AA contrast.
export const theme = createTheme({
  primaryColor: 'violet',
  primaryShade: 7,
  defaultRadius: 'md',
  // Plain objects, not Modal.extend(): importing a component here would pull it into the first load.
  components: {
    // Mantine's close buttons are icons: they need a name for screen readers.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Under a title Mantine greys the message with gray.6, 3.3:1 on white; gray.7 meets WCAG AA's 4.5:1.
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss notification' } }, styles: { description: { color: 'var(--mantine-color-gray-7)' } } },
    // The light variant's active link (violet on pale violet) is 4.26:1; filled is white on violet.
    NavLink: { defaultProps: { variant: 'filled' } },
  },
});

/**
 * The hover of light and subtle violet buttons (the hook ideas' "Use", say). Mantine's is violet.2,
 * under which their violet.9 text is 4.26:1; this shade, halfway between violet.1 (the light
 * variant's rest) and violet.2, is 4.8:1 and still darker than the rest, so hovering shows.
 */
const VIOLET_LIGHT_HOVER = '#dacdff';

// Mantine's dimmed grey (gray.6) is 3.3:1 on white; gray.7 meets WCAG AA's 4.5:1 for body text.
export const cssVariablesResolver: CSSVariablesResolver = (current) => ({
  variables: {},
  light: { '--mantine-color-dimmed': current.colors.gray[7], '--mantine-color-violet-light-hover': VIOLET_LIGHT_HOVER },
  dark: {},
});
