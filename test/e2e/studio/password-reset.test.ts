/**
 * The forgotten-password path in the studio, in Chromium against the local stack: "Forgot password?"
 * on the sign-in page, the email, "check your mail" with the local outbox one click away, the mailed
 * link, a new password, signed in. axe checks each of its pages on the way.
 */
import { axeViolations, describeViolations, type PageViolations } from '#test-support/browser';
import { apiClient } from '#test-support/local-stack';
import { startStudioStack, step, visible, type StudioPage, type StudioStack } from '#test-support/studio-stack';

let studio: StudioStack;
let tab: StudioPage;
beforeAll(async () => {
  studio = await startStudioStack();
  tab = await studio.openPage();
}, 240_000);
afterAll(() => studio?.stop(), 60_000);

const EMAIL = 'forgetful@example.com';
const OLD_PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a freshly chosen passphrase';
const passwordField = (label: string) => tab.page.getByLabel(label).and(tab.page.locator('input'));

test('forgot password → the email → the outbox (local) → the link → a new password: signed in, and the new password is the one that works', async () => {
  const { page } = tab;
  const api = apiClient(studio.apiUrl);
  expect((await api.post('/auth/signup', { email: EMAIL, password: OLD_PASSWORD })).status).toBe(201);
  const checked: PageViolations[] = [];

  await page.goto(`${studio.baseUrl}/`);
  await visible(tab, 'the sign-in form', page.getByRole('button', { name: 'Sign in' }));
  await step(tab, 'follow "Forgot password?"', 15_000, (timeout) => page.getByRole('link', { name: 'Forgot password?' }).click({ timeout }));
  await visible(tab, 'the reset-request form', page.getByRole('button', { name: 'Send the link' }));
  checked.push({ where: 'forgot password', violations: await axeViolations(page) });
  await step(tab, 'ask for the link', 15_000, async (timeout) => {
    await page.getByLabel('Email').fill(EMAIL, { timeout });
    await page.getByRole('button', { name: 'Send the link' }).click({ timeout });
  });
  await visible(tab, '"check your mail"', page.getByRole('status').filter({ hasText: 'Check your mail' }));
  await visible(tab, 'the link to the local outbox', page.getByRole('link', { name: 'open the outbox (local)' }));
  checked.push({ where: 'check your mail', violations: await axeViolations(page) });

  await step(tab, 'open the outbox', 15_000, (timeout) => page.getByRole('link', { name: 'open the outbox (local)' }).click({ timeout }));
  const mail = page.getByRole('article', { name: 'Reset your Reaction Studio password' });
  await visible(tab, 'the mail in the outbox', mail);
  await visible(tab, 'the recipient', mail.getByText(`To ${EMAIL}`));
  checked.push({ where: 'outbox (local)', violations: await axeViolations(page) });

  await step(tab, 'follow the mailed link', 15_000, (timeout) => mail.getByRole('link', { name: /\/reset-password\?token=/ }).click({ timeout }));
  await visible(tab, 'the new-password form', page.getByRole('button', { name: 'Set password' }));
  checked.push({ where: 'reset password', violations: await axeViolations(page) });
  await step(tab, 'set the new password', 15_000, async (timeout) => {
    await passwordField('New password').fill(NEW_PASSWORD, { timeout });
    await passwordField('Confirm password').fill(NEW_PASSWORD, { timeout });
    await page.getByRole('button', { name: 'Set password' }).click({ timeout });
  });
  await visible(tab, 'the signed-in navigation', page.getByRole('navigation', { name: 'Main' }));

  expect((await api.post('/auth/login', { email: EMAIL, password: OLD_PASSWORD })).status).toBe(401);
  expect((await api.post('/auth/login', { email: EMAIL, password: NEW_PASSWORD })).status).toBe(200);
  const report = describeViolations(checked);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);
}, 120_000);

test('a link that is no good says so and offers a new one', async () => {
  const other = await studio.openPage();
  const { page } = other;
  await page.goto(`${studio.baseUrl}/reset-password?token=${'A'.repeat(43)}`);
  await visible(other, 'the new-password form', page.getByRole('button', { name: 'Set password' }));
  await step(other, 'send a password with the bad link', 15_000, async (timeout) => {
    await page.getByLabel('New password').and(page.locator('input')).fill(NEW_PASSWORD, { timeout });
    await page.getByLabel('Confirm password').and(page.locator('input')).fill(NEW_PASSWORD, { timeout });
    await page.getByRole('button', { name: 'Set password' }).click({ timeout });
  });
  await visible(other, 'the refusal', page.getByRole('alert').filter({ hasText: 'unknown, used or expired' }));
  await visible(other, 'the way to a new link', page.getByRole('link', { name: 'Ask for a new link' }));
}, 60_000);
