/**
 * The studio's build: a static single-page app in studio/dist, served by the local stack at `/` and
 * on AWS from S3 behind CloudFront, with the API on the same origin under /api/v1.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  resolve: { alias: [{ find: /^#client\/(.*)$/, replacement: `${here('../clients/typescript/src')}/$1` }] },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    // Sizes that matter are gzipped first-load bytes, which `npm run bench` reports; each page is its own chunk.
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
    rolldownOptions: {
      // Mantine marks its modules "use client" for React Server Components; in a plain SPA it means nothing.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
