/**
 * The environment of the MCP server over stdio: read here and only here (a lint rule keeps every other
 * module from reading it); the server over HTTP reads none.
 */
export type Env = Record<string, string | undefined>;

/** The local stack's API, as the CLI's default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/api/v1';

export function processEnvironment(): Env {
  return process.env;
}

/** A poll interval in milliseconds from `name`; unset is the default, anything but a positive whole number is named. */
export function pollIntervalMsOf(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9]\d{0,6}$/.test(raw)) throw new Error(`${name} must be a whole number of milliseconds, not ${raw}`);
  return Number(raw);
}
