import { readFile } from 'node:fs/promises';
import { createPublicHandler } from '#http/public-handler';
import { metaOperations, type MetaAssets } from '#api/meta';
import { DOCS_FILES, OPENAPI_DOCUMENT_ENV, committedOpenApiDocument, installedDocsFile, type DocsFile } from '#functions/openapi/docs-assets';
import { optionalEnv } from '#functions/config';

/** A file read once per instance (a failed read is tried again on the next request). */
function readOnce(path: () => string, transform: (text: string) => string = (text) => text): () => Promise<string> {
  let content: Promise<string> | undefined;
  return () =>
    (content ??= readFile(path(), 'utf8')
      .then(transform)
      .catch((error: unknown) => {
        content = undefined;
        throw error;
      }));
}

const docsFile = (file: DocsFile) => readOnce(() => optionalEnv(DOCS_FILES[file].env) ?? installedDocsFile(file));

/** From layers on AWS (the stack sets the paths), else from node_modules and the repository. */
const ASSETS: MetaAssets = {
  // Swagger UI's bundle (1.7 MB) and stylesheet (0.2 MB).
  docsScript: docsFile('script'),
  docsStyle: docsFile('style'),
  // The committed copy is indented for review; the wire gets it compact.
  openapiDocument: readOnce(() => optionalEnv(OPENAPI_DOCUMENT_ENV) ?? committedOpenApiDocument(), (text) => JSON.stringify(JSON.parse(text))),
};

/**
 * The public routes reach no port, so this function loads no wiring and no AWS SDK. The ports the local
 * stack hands every handler module are not used.
 */
export const createHandler = (_ports?: unknown, assets: MetaAssets = ASSETS) => createPublicHandler(metaOperations(assets));

/** Also API Gateway's `$default` route: the request-context middleware answers 404/405 there. */
export const handler = createHandler();
