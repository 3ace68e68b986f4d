/**
 * Jest global setup: the studio's build (studio/dist), which the synthesised stack uploads and the
 * browser tests load, made once before the workers start, and only when its sources changed.
 */
import { ensureStudioBuilt } from '#local/studio-build';

export default async function buildStudioOnce(): Promise<void> {
  await ensureStudioBuilt(() => undefined);
}
