import { readFile } from 'node:fs/promises';
import { createPublicHandler } from '#http/public-handler';
import { metaOperations, type MetaAssets } from '#api/meta';
import { DOCS_SCRIPT_ENV, installedDocsScript } from '#functions/openapi/docs-script';
import type { DependencySource } from '#ports/dependencies';

const NONE: DependencySource = () => {
  throw new Error('the public routes reach no port');
};

/** Scalar's bundle (4 MB), read once per instance: from the layer on AWS, else from node_modules. */
let script: Promise<string> | undefined;
const ASSETS: MetaAssets = {
  docsScript: () =>
    (script ??= readFile(process.env[DOCS_SCRIPT_ENV] ?? installedDocsScript(), 'utf8').catch((error: unknown) => {
      script = undefined;
      throw error;
    })),
};

/** The public routes reach no port, so this function loads no wiring and no AWS SDK. */
export const createHandler = (dependencies: DependencySource = NONE, assets: MetaAssets = ASSETS) =>
  createPublicHandler(metaOperations(assets), dependencies);

/** Also API Gateway's `$default` route: the request-context middleware answers 404/405 there. */
export const handler = createHandler();
