/**
 * `npm run test:warm` (CI's type-check lane runs it while the other lane lints): makes what the test
 * run's global setup would otherwise make before any suite starts, into the same caches keyed by their
 * inputs: the studio's build, the app's synthesis for the template suites and the canonical reaction
 * clip. The global setup then finds them current and the suites start at once.
 */
import { ensureStudioBuilt } from '#local/studio-build';
import { prepareCanonicalClip } from './canonical-clip';
import synthesiseForTemplateSuites from './synthesis';

async function main(): Promise<void> {
  await ensureStudioBuilt(() => undefined);
  await Promise.all([synthesiseForTemplateSuites(), prepareCanonicalClip()]);
}

void main();
