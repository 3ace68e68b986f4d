/** Where the committed copy of the document lives, and its exact text (a test compares the two). */
import { buildOpenApiDocument } from './document';
import { OPENAPI_FILE } from './docs-assets';

export { OPENAPI_FILE };

export const openApiText = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
