/** The API functions that take file parts are told the inline upload limit; the others are not. */
import { HANDLER_GROUPS, ROUTES, type HandlerGroup } from '#functions/routes';
import { AWS_INLINE_UPLOAD_MAX_BYTES } from '#domain/uploads';
import { INLINE_UPLOAD_ENV } from '#cloud/api';
import { synthesisedStack } from '#test-support/cdk-template';

const synthesis = synthesisedStack();

const takesFiles = (group: HandlerGroup) => ROUTES.some((r) => r.group === group && r.body?.files);

test.each(Object.keys(HANDLER_GROUPS) as HandlerGroup[])('the %s function knows the inline limit exactly when it takes file parts', (group) => {
  const env = synthesis.resources[synthesis.ids.api.functions[group]]!.Properties.Environment.Variables as Record<string, string>;
  expect(env[INLINE_UPLOAD_ENV]).toBe(takesFiles(group) ? String(AWS_INLINE_UPLOAD_MAX_BYTES) : undefined);
});

test('the groups that take file parts are the products, avatars, music and videos functions', () => {
  expect((Object.keys(HANDLER_GROUPS) as HandlerGroup[]).filter(takesFiles).sort()).toEqual(['avatars', 'music', 'products', 'videos']);
});
