/** Where the committed copy of the document lives, and its exact text (a test compares the two). */
import { buildOpenApiDocument } from './document';

export const OPENAPI_FILE = 'docs/openapi.json';

export const openApiText = () => `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
