/**
 * The environment of the MCP server over stdio: read here and only here (a lint rule keeps every other
 * module from reading it); the server over HTTP reads none.
 */
import { pollIntervalMsFrom } from '@reaction-studio/client';

export type Env = Record<string, string | undefined>;

/** The local stack's API, as the CLI's default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/api/v1';

export function processEnvironment(): Env {
  return process.env;
}

/** A poll interval in milliseconds from `name`; unset is the default, anything but a positive whole number is named. */
export function pollIntervalMsOf(env: Env, name: string): number | undefined {
  return pollIntervalMsFrom(env[name], name);
}
