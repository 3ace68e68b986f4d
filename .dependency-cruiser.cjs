/**
 * The layers of functions/ and what each may import (docs/architecture.md explains why):
 * domain ← ports ← use-cases ← api / pipeline; adapters implement ports; wiring and handlers compose.
 * The render wing (functions/render/) stands beside them: adapters use it, it uses none of them.
 * `npm run lint:deps` fails on any violation and on any import cycle.
 */
const layer = (name) => `^functions/${name}/`;
const notIn = (...names) => `^functions/(${names.join('|')})/`;
/** Anything outside these layers: the other layers of functions/, and lib, test and bin (what a layer that may see only these must not import). */
const beyond = (...names) => `^(functions/(?!(${names.join('|')})/)|lib/|test/|bin/)`;

module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', comment: 'Import cycles hide the direction of dependency.', from: {}, to: { circular: true } },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'The domain holds rules and record types: no file system, processes, network or AWS. (node:crypto hashes and node:net.isIP are arithmetic.)',
      from: { path: layer('domain') },
      to: {
        dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional'],
        pathNot: ['^(crypto|net)$', '^node_modules/zod/'],
      },
    },
    {
      name: 'domain-types-only-from-domain',
      severity: 'error',
      from: { path: layer('domain') },
      to: { path: beyond('domain') },
    },
    {
      name: 'ports-are-interfaces',
      severity: 'error',
      comment: 'Ports name what the core needs; they must not know which adapter serves it.',
      from: { path: layer('ports') },
      to: { path: beyond('domain', 'ports') },
    },
    {
      name: 'use-cases-see-domain-and-ports',
      severity: 'error',
      from: { path: layer('use-cases') },
      to: { path: beyond('domain', 'ports', 'use-cases') },
    },
    {
      name: 'api-calls-use-cases',
      severity: 'error',
      comment: 'Operations parse, call a use case and answer; they reach the outside only through request.deps.',
      from: { path: layer('api') },
      to: { path: notIn('adapters', 'render', 'pipeline', 'wiring', 'handlers') },
    },
    {
      name: 'http-is-plumbing',
      severity: 'error',
      from: { path: layer('http') },
      to: { path: notIn('adapters', 'render', 'pipeline', 'wiring', 'handlers', 'api', 'use-cases') },
    },
    {
      name: 'pipeline-through-ports',
      severity: 'error',
      comment:
        'Steps see the domain, the ports and use cases, and reach the outside only through the dependencies they are handed (rendering too, through the composer).',
      from: { path: layer('pipeline') },
      to: { path: notIn('adapters', 'render', 'wiring', 'handlers', 'api', 'http') },
    },
    {
      name: 'use-cases-by-their-entry-points',
      severity: 'error',
      comment:
        'A use case is one module directly under functions/use-cases/; a folder under it would be its own parts, which the operations and steps do not reach into.',
      from: { path: '^functions/', pathNot: layer('use-cases') },
      to: { path: '^functions/use-cases/[^/]+/' },
    },
    {
      name: 'render-stands-alone',
      severity: 'error',
      comment: 'The render wing draws and encodes; it knows the domain and the ports, never who calls it.',
      from: { path: layer('render') },
      to: { path: notIn('adapters', 'wiring', 'handlers', 'api', 'http', 'pipeline', 'use-cases') },
    },
    {
      name: 'render-only-from-the-edges',
      severity: 'error',
      comment:
        'Inside functions/, only adapters, wiring and handlers use the render wing, through its index (#render); the core reaches rendering through ports.',
      from: {
        path: '^functions/',
        pathNot: notIn('adapters', 'wiring', 'handlers', 'render'),
      },
      to: { path: layer('render') },
    },
    {
      name: 'render-through-its-index',
      severity: 'error',
      comment: 'Outside the wing, rendering is imported from functions/render/index.ts (#render), not from a file inside. (Tests of the wing may.)',
      from: { path: '^(functions/(?!render/)|lib/|bin/|bench/|test/(?!functions/render/))' },
      to: { path: '^functions/render/(?!index\\.ts$)' },
    },
    {
      name: 'adapters-decide-no-rule-of-the-api',
      severity: 'error',
      comment: 'Adapters implement ports; they do not call operations, use cases or the pipeline.',
      from: { path: layer('adapters') },
      to: { path: notIn('api', 'http', 'use-cases', 'pipeline', 'wiring', 'handlers') },
    },
    {
      name: 'functions-stand-alone',
      severity: 'error',
      comment: 'What runs on Lambda must not import the local twin, the CDK app, tests or benchmarks.',
      from: { path: '^functions/' },
      to: { path: '^(lib|test|bench|bin)/' },
    },
    {
      name: 'client-stands-alone',
      severity: 'error',
      comment: 'The TypeScript client is published on its own: it knows the API only through the generated types.',
      from: { path: '^clients/' },
      to: { path: '^(functions|lib|test|bench|bin)/' },
    },
    {
      name: 'studio-through-the-client',
      severity: 'error',
      comment: 'The studio is a browser app: it reaches the service only over HTTP, through the typed client.',
      from: { path: '^studio/' },
      to: { path: '^(functions|lib|test|bench|bin)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.data|clients/[^/]+/dist)' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
