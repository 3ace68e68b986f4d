import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createPublicHandler } from '#http/public-handler';
import { metaOperations, type MetaAssets } from '#api/meta';
import { DOCS_SCRIPT_ENV, DOCS_SCRIPT_FILE_NAME } from '#functions/openapi/docs-page';
import type { DependencySource } from '#ports/dependencies';

const NONE: DependencySource = () => {
  throw new Error('the public routes reach no port');
};

/**
 * Scalar's bundle: on AWS a layer ships it (its path in DOCS_SCRIPT_FILE); elsewhere it is read from
 * the installed package. Read once per instance (4 MB).
 */
function installedScalarBundle(): string {
  const dist = dirname(require.resolve('@scalar/api-reference/style.css'));
  return join(dist, 'browser', DOCS_SCRIPT_FILE_NAME);
}

let script: Promise<string> | undefined;
const ASSETS: MetaAssets = {
  docsScript: () =>
    (script ??= readFile(process.env[DOCS_SCRIPT_ENV] ?? installedScalarBundle(), 'utf8').catch((error: unknown) => {
      script = undefined;
      throw error;
    })),
};

/** The public routes reach no port, so this function loads no wiring and no AWS SDK. */
export const createHandler = (dependencies: DependencySource = NONE, assets: MetaAssets = ASSETS) =>
  createPublicHandler(metaOperations(assets), dependencies);

/** Also API Gateway's `$default` route: the request-context middleware answers 404/405 there. */
export const handler = createHandler();
