/**
 * Where the meta function finds what it serves as files: the reference page's script and stylesheet
 * (Swagger UI's prebuilt bundle, the `swagger-ui-dist` package) and the API description. On AWS layers
 * put them under /opt and the stack names those paths (lib/cloud/api.ts); elsewhere they are read from
 * the installed package and the repository. The description is the committed docs/openapi.json, which
 * a test keeps equal to what the schemas generate (`npm run openapi`), so no function bundles the
 * schemas to build it.
 */
import { dirname, join, resolve } from 'node:path';

/** The page's files: the variable that names each one's path on AWS, and its name in the package. */
export const DOCS_FILES = {
  script: { env: 'DOCS_SCRIPT_FILE', fileName: 'swagger-ui-bundle.js' },
  style: { env: 'DOCS_STYLE_FILE', fileName: 'swagger-ui.css' },
} as const;
export type DocsFile = keyof typeof DOCS_FILES;

export const OPENAPI_DOCUMENT_ENV = 'OPENAPI_DOCUMENT_FILE';
export const OPENAPI_FILE = 'docs/openapi.json';

/** The installed package's folder, which holds both files side by side. */
export function installedDocsDir(): string {
  // Built at run time so that esbuild neither bundles nor lists the package: no Lambda reaches here.
  const manifest = ['swagger-ui-dist', 'package.json'].join('/');
  return dirname(require.resolve(manifest));
}

/** A page file in node_modules. */
export const installedDocsFile = (file: DocsFile): string => join(installedDocsDir(), DOCS_FILES[file].fileName);

/** The committed document in this repository (this module sits two folders below its root). */
export const committedOpenApiDocument = (): string => resolve(__dirname, '..', '..', OPENAPI_FILE);
