/**
 * `npm run lint:openapi` (after `openapi.ts --check`): lints docs/openapi.json with Redocly's rules as
 * redocly.yaml sets them (the recommended ones, and ours in lint/openapi-rules.ts), and fails on any
 * error or warning. It calls `@redocly/openapi-core`, the
 * linter inside Redocly's CLI, which openapi-typescript already installs: the CLI itself would add
 * 14 MB and a docs server to the install for this one command.
 */
import { formatProblems, getTotals, lint, loadConfig } from '@redocly/openapi-core';
import linterPackage from '@redocly/openapi-core/package.json';
import { OPENAPI_FILE } from '#functions/openapi/file';

const LINTER_VERSION = linterPackage.version;

async function main(): Promise<void> {
  const config = await loadConfig({ configPath: 'redocly.yaml' });
  const problems = await lint({ ref: OPENAPI_FILE, config });
  const totals = getTotals(problems);
  formatProblems(problems, { format: 'stylish', totals, version: LINTER_VERSION, color: process.stdout.isTTY });
  if (totals.errors > 0 || totals.warnings > 0) {
    console.error(`${OPENAPI_FILE}: ${totals.errors} errors, ${totals.warnings} warnings (redocly.yaml allows none)`);
    process.exit(1);
  }
  console.log(`${OPENAPI_FILE} lints clean (Redocly openapi-core ${LINTER_VERSION}, redocly.yaml)`);
}

void main();
