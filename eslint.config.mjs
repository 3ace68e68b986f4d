// typescript-eslint's recommended rules over all TypeScript; the layer and cycle rules live in
// .dependency-cruiser.cjs (`npm run lint` runs both).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.data/', 'studio/dist/', 'clients/typescript/src/schema.d.ts', 'clients/mcp/src/answer-schemas.ts', 'clients/*/dist/', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed parameters and destructured leftovers are deliberate (handler signatures, omit-by-destructuring).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Each runtime reads its environment in one config module, which checks it and names a bad variable.
    files: ['functions/**/*.ts', 'lib/**/*.ts', 'bin/**/*.ts', 'clients/**/*.ts'],
    ignores: ['functions/config.ts', 'lib/local/config.ts', 'lib/admin/config.ts', 'lib/cloud/config.ts', 'clients/cli/src/environment.ts', 'clients/mcp/src/environment.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: "Read the environment through the runtime's config module (functions/config.ts, lib/*/config.ts, the CLI's and the MCP server's environment.ts)." },
      ],
    },
  },
  {
    // The render wing's pixel and sample loops: a loop that names the global `Math` looks it up on
    // every pass, and in jest's vm sandbox each lookup is an interceptor call (a per-pixel
    // `Math.abs` ran ~80x slower there). Each module reads what it needs once: `const { abs } = Math;`.
    // Tests too: their own pixel loops run in that sandbox.
    files: ['functions/render/**/*.ts', 'test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='Math']", message: 'Read Math once at the top of the module (`const { abs, max } = Math;`): see eslint.config.mjs on the render wing.' },
      ],
    },
  },
  {
    // Lambda bundles: classic zod brings its whole API and every locale (~450 KB); zod/mini with
    // `en` from zod/locales where messages are shown is ~30 KB.
    files: ['functions/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Import zod/mini (and `en` from 'zod/locales' for messages): classic zod adds ~450 KB to a Lambda bundle." }] }],
    },
  },
  {
    files: ['studio/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    // Tests read JSON answers loosely on purpose: the e2e client checks every answer against the OpenAPI document.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
