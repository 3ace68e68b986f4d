/** Jest global setup of `npm run test:fast`: the studio's build, then the app's synthesis for the template suites (each only when its inputs changed). */
import { ensureStudioBuilt } from '#local/studio-build';
import synthesiseForTemplateSuites from './synthesis';

export default async function fastGlobalSetup(config: Parameters<typeof synthesiseForTemplateSuites>[0]): Promise<void> {
  await ensureStudioBuilt(() => undefined);
  await synthesiseForTemplateSuites(config);
}
