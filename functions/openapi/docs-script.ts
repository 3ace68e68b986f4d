/**
 * Where the meta function finds the reference page's script (Scalar's standalone bundle): on AWS a
 * layer puts it at /opt/<file name> and the stack names that path in DOCS_SCRIPT_FILE
 * (lib/cloud/api.ts); elsewhere it is read from the installed package.
 */
import { dirname, join } from 'node:path';

export const DOCS_SCRIPT_ENV = 'DOCS_SCRIPT_FILE';
export const DOCS_SCRIPT_FILE_NAME = 'standalone.js';

/** The bundle in node_modules (the package's exports name its stylesheet, not the bundle). */
export function installedDocsScript(): string {
  // Built at run time so that esbuild neither bundles nor lists the package: no Lambda reaches here.
  const exported = ['@scalar/api-reference', 'style.css'].join('/');
  return join(dirname(require.resolve(exported)), 'browser', DOCS_SCRIPT_FILE_NAME);
}
