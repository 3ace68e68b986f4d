/**
 * Jest global setup: the app synthesised once for the template suites (test/support/app-synthesis.ts),
 * kept while its inputs are unchanged, and named to the workers in an environment variable. A run that
 * selects none of those suites skips it, so a unit test run after editing a handler costs no synth.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cachedEntry, inputsHash, SYNTHESIS_ENV } from '../synthesis-cache';
// CDK notes each bundle it makes on stderr: the workers' filter (quiet-logs.ts) drops them here too.
import '../quiet-logs';

/** What is read of jest's global config (a structural type: @jest/types is jest's own dependency). */
interface RunSelection {
  rootDir: string;
  testPathPatterns?: { isSet(): boolean; toExecutor(options: { rootDir: string }): { isMatch(absolutePath: string): boolean } };
}

const TEST_ROOT = path.resolve(__dirname, '..', '..');

/** The suites that read the synthesis: those that call synthesisedStack() or synthesisedVariant() (test/support/cdk-template.ts). */
function templateSuites(dir = TEST_ROOT): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return templateSuites(full);
    return entry.name.endsWith('.test.ts') && /synthesised(Stack|Variant)\(/.test(fs.readFileSync(full, 'utf8')) ? [full] : [];
  });
}

function selectsTemplateSuites(config?: RunSelection): boolean {
  const patterns = config?.testPathPatterns;
  if (!patterns?.isSet()) return true;
  const selected = patterns.toExecutor({ rootDir: config!.rootDir });
  return templateSuites().some((suite) => selected.isMatch(suite));
}

export default async function synthesiseForTemplateSuites(config?: RunSelection): Promise<void> {
  if (!selectsTemplateSuites(config)) return;
  process.env[SYNTHESIS_ENV] = await cachedEntry(inputsHash(), async (dir) => {
    // aws-cdk-lib is loaded only when there is something to synthesise.
    const { synthesise } = await import('../app-synthesis');
    synthesise(dir);
  });
}
