import { createTheme } from '@mantine/core';

// Violet reads as the brand; dark enough shades keep text on it at WCAG AA contrast.
export const theme = createTheme({ primaryColor: 'violet', primaryShade: 7, defaultRadius: 'md' });
