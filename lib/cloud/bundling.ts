/**
 * How a Lambda bundle is built, in one place. The stack hands it to NodejsFunction (which runs the
 * project's own esbuild, no Docker) and the bundle-size benchmark hands it to `esbuild.build()`, so
 * the figure the README quotes is the bundle that ships.
 *
 * Only types are imported from esbuild and aws-cdk-lib: a script can load this module without
 * paying for aws-cdk-lib.
 */
import * as path from 'node:path';
import type { BuildOptions } from 'esbuild';
import type { BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { CAPTION_FONTS, SAMPLE_FONTS } from '#render';
import { DOCS_FILES, installedDocsDir } from '#functions/openapi/docs-assets';

export const LAMBDA_BUNDLE = {
  /** Lambda's runtime is nodejs22.x whatever Node runs the build. */
  target: 'node22',
  platform: 'node',
  format: 'cjs',
  minify: true,
  sourcemap: false,
  /**
   * Nothing is left to the runtime: each bundle carries the AWS SDK v3 clients it uses, at the versions
   * package-lock.json pins and the tests ran, as AWS advises for production. The runtime's own copy
   * is whatever version AWS last put there, and not every package the code uses (lib-dynamodb, the
   * presigners, cloudfront-signer) is promised in it. It costs a few hundred KB per bundle; the ES
   * module builds (mainFields) let esbuild keep only the commands a function calls.
   */
  external: [] as readonly string[],
  /**
   * Prefer packages' ES module builds: esbuild can tree-shake them, which takes about a third off a
   * handler bundle using the AWS SDK clients (and its cold load time with it). The output is still CJS.
   */
  mainFields: ['module', 'main'] as readonly string[],
} as const;

/**
 * Packages that load native code, which esbuild cannot bundle: functions that use them get them from
 * the native-modules layer (lib/cloud/native-modules-layer.ts). Every bundle leaves them out, with the
 * layer or without: esbuild reads every module the render wing's index (#render) names, native ones
 * included, and keeps only what the function uses (package.json's `sideEffects`), so a function
 * without the layer that uses none of the native parts still reaches them while building. That it
 * never loads them at run time is checked on each bundle's output (test/lib/cloud/bundling.test.ts).
 */
export const NATIVE_MODULES = ['sharp', '@napi-rs/canvas'] as const;

/**
 * The API reference page's script and stylesheet (Swagger UI's prebuilt bundle, about 2 MB): the meta
 * function serves them from a layer holding just those files, read at the paths in DOCS_SCRIPT_FILE and
 * DOCS_STYLE_FILE (functions/handlers/meta.ts).
 */
export const docsAssetsDir = installedDocsDir;
export { DOCS_FILES };

/**
 * Caption fonts, and the sample clip's (render/sample/sample-fonts.ts), ship in the same layer and in
 * the images holding its tree: esbuild cannot bundle font files (see caption-fonts.ts).
 */
export const FONT_PACKAGES = [...Object.values(CAPTION_FONTS), ...Object.values(SAMPLE_FONTS)].map((font) => ({ name: font.packageName, folder: font.folder, files: font.files }));

export interface BundleVariant {
  /** The function has the native-modules layer (which changes nothing in the bundle: see NATIVE_MODULES). */
  native?: boolean;
  /** Packages replaced by functions/handlers/absent-module.ts (FunctionNeeds.absent). */
  absent?: readonly string[];
}

const ABSENT_MODULE = path.resolve(__dirname, '..', '..', 'functions', 'handlers', 'absent-module.ts');
const aliasesFor = (variant: BundleVariant): Record<string, string> => Object.fromEntries((variant.absent ?? []).map((name) => [name, ABSENT_MODULE]));

const externalsFor = (_variant: BundleVariant) => [...LAMBDA_BUNDLE.external, ...NATIVE_MODULES];

/** Options for a plain `esbuild.build()` that produce the same bundle NodejsFunction does. */
export function lambdaEsbuildOptions(entry: string, outfile: string, variant: BundleVariant = {}): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    target: LAMBDA_BUNDLE.target,
    platform: LAMBDA_BUNDLE.platform,
    format: LAMBDA_BUNDLE.format,
    minify: LAMBDA_BUNDLE.minify,
    sourcemap: LAMBDA_BUNDLE.sourcemap,
    external: externalsFor(variant),
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    alias: aliasesFor(variant),
    logLevel: 'warning',
  };
}

/**
 * The same options as NodejsFunction's `bundling` props. NodejsFunction always bundles for the node
 * platform and derives nothing else from the runtime once `target` is given.
 */
export function lambdaBundlingProps(variant: BundleVariant = {}): BundlingOptions {
  return {
    target: LAMBDA_BUNDLE.target,
    // OutputFormat is a string enum whose CJS member is 'cjs'; a type-only import keeps aws-cdk-lib out.
    format: LAMBDA_BUNDLE.format as OutputFormat,
    minify: LAMBDA_BUNDLE.minify,
    sourceMap: LAMBDA_BUNDLE.sourcemap,
    externalModules: externalsFor(variant),
    mainFields: [...LAMBDA_BUNDLE.mainFields],
    esbuildArgs: Object.fromEntries(Object.entries(aliasesFor(variant)).map(([name, file]) => [`--alias:${name}`, file])),
    forceDockerBundling: false,
    logLevel: 'warning' as BundlingOptions['logLevel'],
  };
}
