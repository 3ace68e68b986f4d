/**
 * Part of `npm run lint`: fails, listing `file:line name length`, when a function or class in the
 * tracked TypeScript of functions/, lib/ or clients/ is longer than the limit (bin/lint/function-length.ts).
 * `--top N` prints the N longest instead, and does not fail.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FUNCTION_LENGTH_LIMIT, formatMeasured, lengthViolations, measureSource } from './lint/function-length';

const files = execFileSync('git', ['ls-files', '--', 'functions/*.ts', 'lib/*.ts', 'clients/*.ts'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
const measured = files.flatMap((file) => measureSource(file, readFileSync(file, 'utf8')));

const top = process.argv.indexOf('--top');
if (top >= 0) {
  const n = Number(process.argv[top + 1] ?? 20);
  for (const m of [...measured].sort((a, b) => b.lines - a.lines).slice(0, n)) console.log(formatMeasured(m));
} else {
  const { tooLong, stale } = lengthViolations(measured);
  for (const m of tooLong) console.error(`${formatMeasured(m)}: longer than ${FUNCTION_LENGTH_LIMIT} lines; split it`);
  for (const a of stale) console.error(`${a.file} ${a.name}: allowed to exceed ${FUNCTION_LENGTH_LIMIT} lines but no longer does; remove it from FUNCTION_LENGTH_ALLOWED`);
  if (tooLong.length + stale.length > 0) process.exit(1);
}
