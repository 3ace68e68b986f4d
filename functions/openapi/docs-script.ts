/**
 * Where the meta function finds what it serves as files: the reference page's script (Scalar's
 * standalone bundle) and the API description. On AWS layers put them under /opt and the stack names
 * those paths (lib/cloud/api.ts); elsewhere they are read from the installed package and the
 * repository. The description is the committed docs/openapi.json, which a test keeps equal to what
 * the schemas generate (`npm run openapi`), so no function bundles the schemas to build it.
 */
import { dirname, join, resolve } from 'node:path';

export const DOCS_SCRIPT_ENV = 'DOCS_SCRIPT_FILE';
export const DOCS_SCRIPT_FILE_NAME = 'standalone.js';

export const OPENAPI_DOCUMENT_ENV = 'OPENAPI_DOCUMENT_FILE';
export const OPENAPI_FILE = 'docs/openapi.json';

/** The bundle in node_modules (the package's exports name its stylesheet, not the bundle). */
export function installedDocsScript(): string {
  // Built at run time so that esbuild neither bundles nor lists the package: no Lambda reaches here.
  const exported = ['@scalar/api-reference', 'style.css'].join('/');
  return join(dirname(require.resolve(exported)), 'browser', DOCS_SCRIPT_FILE_NAME);
}

/** The committed document in this repository (this module sits two folders below its root). */
export const committedOpenApiDocument = (): string => resolve(__dirname, '..', '..', OPENAPI_FILE);
