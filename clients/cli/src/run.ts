/**
 * The CLI as a function of its arguments and environment, answering an exit code: parse, run the
 * command, print any error as one line on stderr (or one JSON object on stdout with --json).
 */
import { parseInvocation, USAGE, wantsJson } from './args.js';
import { execute, type Context } from './commands.js';
import { EXIT, exitCodeFor, type ExitCode } from './exit-codes.js';
import { errorJson, errorLine, type Io } from './output.js';
import { CLI_VERSION } from './version.js';

export async function run(argv: readonly string[], io: Io, env: Context['env'], options: { intervalMs?: number; signal?: AbortSignal } = {}): Promise<ExitCode> {
  const json = wantsJson(argv);
  try {
    const { command } = parseInvocation(argv);
    if (command.name === 'help') {
      io.out(USAGE);
      return EXIT.ok;
    }
    if (command.name === 'version') {
      io.out(json ? JSON.stringify({ version: CLI_VERSION }) : CLI_VERSION);
      return EXIT.ok;
    }
    await execute(command, { io, env, json, intervalMs: options.intervalMs, signal: options.signal });
    return EXIT.ok;
  } catch (error) {
    if (json) io.out(errorJson(error));
    else io.err(errorLine(error));
    return exitCodeFor(error);
  }
}
