/** Jest global setup of `npm run test:fast`: only the studio's build (when its sources changed), which the CDK template suites synthesise. */
import { ensureStudioBuilt } from '#local/studio-build';

export default async function fastGlobalSetup(): Promise<void> {
  await ensureStudioBuilt(() => undefined);
}
