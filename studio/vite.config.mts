/**
 * The studio's build: a static single-page app in studio/dist, served by the local stack at `/` and
 * on AWS from S3 behind CloudFront, with the API on the same origin under /api/v1. Vite 7 (still given
 * security fixes): it builds with Rollup and the esbuild the Lambda bundles already use, where Vite 8's
 * Rolldown and Lightning CSS bindings would add 30 MB to the install for a 5 s build (first load 188
 * against 186 KB gzipped, measured 2026-11-29).
 */
import { fileURLToPath } from 'node:url';
import { icons as heroicons } from '@iconify-json/heroicons';
import Icons from 'unplugin-icons/vite';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Heroicons' outline paths carry their own stroke and stroke-width. Loaded here with those moved to the
// <svg>, the icons' `stroke` prop (line width, studio/src/components/icons.tsx) reaches them, as with @heroicons/react.
const OUTLINE = ' fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="1.5"';
const heroicon = (name: string) => {
  const icon = heroicons.icons[name];
  return icon && `<svg viewBox="0 0 ${heroicons.width} ${heroicons.height}"${OUTLINE}>${icon.body.replaceAll(OUTLINE, '')}</svg>`;
};

export default defineConfig({
  root: here('.'),
  base: '/',
  // `~icons/heroicons/<name>` imports become React components at build time; only those imported ship.
  plugins: [Icons({ compiler: 'jsx', jsx: 'react', autoInstall: false, customCollections: { heroicons: heroicon } })],
  resolve: { alias: [{ find: /^#client\/(.*)$/, replacement: `${here('../clients/typescript/src')}/$1` }] },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    // Sizes that matter are gzipped first-load bytes, which `npm run bench` reports; each page is its own chunk.
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
    rollupOptions: {
      // Mantine marks its modules "use client" for React Server Components; in a plain SPA it means nothing.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
