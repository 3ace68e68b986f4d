/** `npm run openapi`: writes the API description to docs/openapi.json (`--check`: fails if it is out of date). */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPENAPI_FILE, openApiText } from '#functions/openapi/file';

const text = openApiText();
if (process.argv.includes('--check')) {
  const current = (() => {
    try {
      return readFileSync(OPENAPI_FILE, 'utf8');
    } catch {
      return '';
    }
  })();
  if (current !== text) {
    console.error(`${OPENAPI_FILE} is out of date: run npm run openapi`);
    process.exit(1);
  }
} else {
  writeFileSync(OPENAPI_FILE, text);
  console.log(`wrote ${OPENAPI_FILE}`);
}
