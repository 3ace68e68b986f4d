/** Jest global setup: the studio's build and the canonical clip (each only when its sources changed), and the run's shared services. */
import { ensureStudioBuilt } from '#local/studio-build';
import { prepareCanonicalClip } from './canonical-clip';
import { startSharedServices } from './services';

export default async function globalSetup(): Promise<void> {
  await Promise.all([ensureStudioBuilt(() => undefined), prepareCanonicalClip(), startSharedServices()]);
}
