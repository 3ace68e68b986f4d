/**
 * axe-core on every page of the studio in Chromium, as a new account first sees them (empty states):
 * sign-in, sign-up, then each page the navigation links to. The pages with data on them (a product,
 * a job, a video) are checked along the journey (journey.test.ts). Serious and critical violations fail.
 */
import { axeViolations, describeViolations, type PageViolations } from '#test-support/browser';
import { navigationPages, openFromNavigation, signUp, startStudioStack, visible, type StudioPage, type StudioStack } from '#test-support/studio-stack';

let studio: StudioStack;
let tab: StudioPage;
beforeAll(async () => {
  studio = await startStudioStack();
  tab = await studio.openPage();
}, 240_000);
afterAll(() => studio?.stop(), 60_000);

test('sign-in and sign-up have no serious or critical violations', async () => {
  const checked: PageViolations[] = [];
  await tab.page.goto(`${studio.baseUrl}/`);
  await visible(tab, 'the sign-in form', tab.page.getByRole('button', { name: 'Sign in' }));
  checked.push({ where: 'sign-in', violations: await axeViolations(tab.page) });
  await tab.page.getByRole('link', { name: 'Create an account' }).click();
  await visible(tab, 'the sign-up form', tab.page.getByRole('button', { name: 'Create account' }));
  checked.push({ where: 'sign-up', violations: await axeViolations(tab.page) });
  const report = describeViolations(checked);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);
}, 60_000);

test('every page in the navigation, as a new account sees it, has no serious or critical violations', async () => {
  await signUp(studio, tab, `axe-${Date.now()}@example.com`);
  const pages = await navigationPages(tab.page);
  expect(pages.map((p) => p.label)).toEqual(expect.arrayContaining(['New video', 'Products', 'Usage', 'Settings']));
  const checked: PageViolations[] = [];
  for (const { label, path } of pages) {
    await openFromNavigation(tab, label, path);
    checked.push({ where: `${label} (${path})`, violations: await axeViolations(tab.page) });
  }
  const report = describeViolations(checked);
  if (report) throw new Error(`axe found serious or critical violations:\n${report}`);
}, 180_000);
