/**
 * Jest global setup (docs/testing.md): the studio's build, then the app's synthesis that uploads it
 * (each only when its inputs changed), the canonical reaction clip, and the run's shared services.
 */
import { ensureStudioBuilt } from '#local/studio-build';
import { prepareCanonicalClip } from './canonical-clip';
import { startSharedServices } from './services';
import synthesiseForTemplateSuites from './synthesis';

export default async function globalSetup(config: Parameters<typeof synthesiseForTemplateSuites>[0]): Promise<void> {
  await Promise.all([
    ensureStudioBuilt(() => undefined).then(() => synthesiseForTemplateSuites(config)),
    prepareCanonicalClip(),
    startSharedServices(),
  ]);
}
