/**
 * The CLI's environment: read here and only here (a lint rule keeps every other module from reading
 * it); the client library itself reads none.
 */
import { pollIntervalMsFrom } from '@reaction-studio/client';

export type Env = Record<string, string | undefined>;

export function processEnvironment(): Env {
  return process.env;
}

/** A poll interval in milliseconds from `name`; unset is the default, anything but a positive whole number is named. */
export function pollIntervalMsOf(env: Env, name: string): number | undefined {
  return pollIntervalMsFrom(env[name], name);
}
