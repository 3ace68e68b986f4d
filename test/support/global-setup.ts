/** Jest global setup: each step in its own module. The synthesis uploads the studio build, so that comes first. */
import buildStudioOnce from './studio-build';
import synthesiseForTemplateSuites from './global/synthesis';

export default async function globalSetup(config: Parameters<typeof synthesiseForTemplateSuites>[0]): Promise<void> {
  await buildStudioOnce();
  await synthesiseForTemplateSuites(config);
}
