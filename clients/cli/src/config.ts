/**
 * Where the CLI keeps its key: `$REACTION_STUDIO_CONFIG`, else `~/.config/reaction-studio/config.json`,
 * written with mode 0600. `RS_API_KEY` and `RS_BASE_URL` override what the file says.
 */
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000/api/v1';

export interface StoredConfig {
  api_key?: string;
  base_url?: string;
  /** What `webhooks listen` signs forwarded events with (made on first use). */
  listen_secret?: string;
}

export type Env = Record<string, string | undefined>;

export function configPath(env: Env): string {
  return env.REACTION_STUDIO_CONFIG || join(env.HOME || homedir(), '.config', 'reaction-studio', 'config.json');
}

export async function readConfig(path: string): Promise<StoredConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  const parsed: unknown = JSON.parse(text);
  return typeof parsed === 'object' && parsed !== null ? (parsed as StoredConfig) : {};
}

export async function writeConfig(path: string, config: StoredConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600); // writeFile's mode only applies to a new file
}

/** The key and base URL to use: the environment first, then the config file, then the local default URL. */
export async function resolveCredentials(env: Env): Promise<{ apiKey: string | undefined; baseUrl: string }> {
  const stored = await readConfig(configPath(env));
  return {
    apiKey: env.RS_API_KEY || stored.api_key,
    baseUrl: env.RS_BASE_URL || stored.base_url || DEFAULT_BASE_URL,
  };
}
