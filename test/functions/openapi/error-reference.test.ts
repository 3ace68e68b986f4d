import { ERROR_CODES, ERROR_HELP, type ErrorCode } from '#domain/errors';
import { ERROR_REFERENCE_CSP, ERROR_REFERENCE_HTML } from '#functions/openapi/error-reference';
import { metaOperations } from '#functions/api/meta';

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

describe('the error reference page', () => {
  test('has one section per code, anchored by the code, with its status and what to do', () => {
    for (const code of CODES) {
      const section = new RegExp(`<section id="${code}">\\s*<h2><code>${code}</code> <span class="status">${ERROR_CODES[code]}</span></h2>\\s*<p>([^<]|<code>|</code>)+</p>`);
      expect(ERROR_REFERENCE_HTML).toMatch(section);
    }
    expect(ERROR_REFERENCE_HTML.match(/<section id=/g)).toHaveLength(CODES.length);
  });

  test('says something for every code, and escapes what it says', () => {
    for (const code of CODES) expect(ERROR_HELP[code].length).toBeGreaterThan(30);
    expect(ERROR_REFERENCE_HTML).toContain('<code>Retry-After</code>');
    expect(ERROR_REFERENCE_HTML).not.toMatch(/<script/i);
  });

  test('is served as HTML with a policy that loads nothing', async () => {
    const answer = await metaOperations({ docsScript: async () => '', docsStyle: async () => '', openapiDocument: async () => '{}' }).docsErrors.public({} as never);
    expect(answer).toMatchObject({ statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': ERROR_REFERENCE_CSP } });
    expect(answer.body).toBe(ERROR_REFERENCE_HTML);
    expect(ERROR_REFERENCE_CSP).toContain("default-src 'none'");
  });
});
