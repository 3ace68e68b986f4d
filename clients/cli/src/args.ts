/**
 * The command line, parsed per command with node:util's parseArgs (strict: an unknown option or a
 * missing value is a UsageError, exit 2) into one typed request per command. Nothing here touches
 * the network or the disk.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './exit-codes.js';

const POSITIONS = ['top', 'middle', 'bottom'] as const;
const SIZES = ['small', 'medium', 'large'] as const;
const SOUNDS = ['auto', 'music', 'none'] as const;
const STYLES = ['outline', 'box', 'highlight', 'glow', 'bold_caps'] as const;
const DURATIONS = ['reaction', 'full'] as const;
type Position = (typeof POSITIONS)[number];
type Size = (typeof SIZES)[number];

/** How the caption looks and how long it stays (`--style`, `--hook-duration`); left out, the API's default or the job's own. */
interface HookLook {
  style?: (typeof STYLES)[number];
  hookDuration?: (typeof DURATIONS)[number];
}

/** The video's sound (`--sound`, `--music`): `--music` alone means music; each left out is the API's default or the job's own. */
interface Sound {
  sound?: (typeof SOUNDS)[number];
  musicId?: string;
}

/** How the reaction is made: from a prompt, a saved reaction, or an avatar driven by a reference clip. */
type ReactionSource = { method: 'prompt'; prompt: string } | { method: 'reuse'; reactionId: number } | { method: 'motion'; avatarId: number; reference: string };

export type Command =
  | { name: 'help' }
  | { name: 'version' }
  /** `key` `-`: read it from standard input (so it stays out of the shell's history and `ps`). */
  | { name: 'login'; key: string; baseUrl?: string }
  | { name: 'products create'; productName: string; description?: string; demo: string; wait: boolean }
  | { name: 'products list' }
  | { name: 'hooks'; productId: number }
  | {
      name: 'videos create';
      productId: number;
      source: ReactionSource;
      hook?: string;
      position?: Position;
      size?: Size;
      preview: boolean;
      wait: boolean;
      out?: string;
    } & Sound & HookLook & { voiceLine?: string }
  | {
      name: 'videos batch';
      productId: number;
      /** One reaction under every hook: a batch variant per `--hook`. */
      source: Exclude<ReactionSource, { method: 'motion' }>;
      hooks: string[];
      position?: Position;
      size?: Size;
      wait: boolean;
    } & Sound & HookLook & { voiceLine?: string }
  | { name: 'videos download'; videoId: number; out?: string }
  | { name: 'videos list' }
  | { name: 'jobs get'; jobId: number }
  | { name: 'jobs takes'; jobId: number }
  | ({ name: 'jobs approve'; jobId: number; take?: number; hook?: string; position?: Position; size?: Size; wait: boolean; out?: string } & Sound & HookLook)
  | ({ name: 'jobs regenerate'; jobId: number; prompt?: string; voiceLine?: string; wait: boolean } & Sound & HookLook)
  | { name: 'music list' }
  | { name: 'music add'; file: string; trackName?: string }
  | { name: 'music delete'; musicId: string }
  | { name: 'usage' }
  /** Events of the account forwarded to a local URL (`--events`: only these types; none: every type). */
  | { name: 'webhooks listen'; forwardTo: string; events?: string[]; printSecret: boolean };

export interface Invocation {
  command: Command;
  json: boolean;
}

type Options = NonNullable<ParseArgsConfig['options']>;
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const lookOptions = { style: str, 'hook-duration': str } satisfies Options;
const hookOptions = { hook: str, position: str, size: str, ...lookOptions } satisfies Options;
const soundOptions = { sound: str, music: str } satisfies Options;
const voiceOptions = { ...soundOptions, 'voice-line': str } satisfies Options;

export const USAGE = `usage: reaction-studio <command> [options] [--json]
       reaction-studio --version

  login --key rsk_...|- [--base-url URL]      (--key -: read the key from standard input)
  products create --name N [--description D] --demo FILE [--wait]
  products list
  hooks PRODUCT_ID
  videos create --product ID (--prompt TEXT | --reaction ID | --avatar ID --reference FILE)
                [--hook TEXT] [--position top|middle|bottom] [--size small|medium|large]
                [--style outline|box|highlight|glow|bold_caps] [--hook-duration reaction|full]
                [--sound auto|music|none] [--music TRACK] [--voice-line TEXT]
                [--preview] [--wait] [--out FILE]
  videos batch --product ID (--prompt TEXT | --reaction ID) --hook TEXT [--hook TEXT ...]
                [--position top|middle|bottom] [--size small|medium|large]
                [--style STYLE] [--hook-duration reaction|full]
                [--sound auto|music|none] [--music TRACK] [--voice-line TEXT] [--wait]
  videos download ID [--out FILE]
  videos list
  jobs get ID
  jobs takes ID
  jobs approve ID [--take N] [--hook TEXT] [--position P] [--size S] [--style STYLE] [--hook-duration D]
                [--sound S] [--music TRACK] [--wait] [--out FILE]
  jobs regenerate ID [--prompt TEXT] [--style STYLE] [--hook-duration D] [--sound S] [--music TRACK]
                [--voice-line TEXT] [--wait]
  music list
  music add FILE [--name N]
  music delete ID
  usage
  webhooks listen --forward-to URL [--events TYPE,TYPE...]   (Ctrl-C stops it)
  webhooks listen --print-secret

sound: auto (default) an effect matched to the reaction; music a track under the video (--music alone
       implies it; music list shows the tracks); none the demo's own audio only. --voice-line (at most
       100 characters) is spoken during the reaction; not with --reaction.

--wait follows the job: the job's id on stderr at once, a progress line while stderr is a terminal,
       then the MP4 downloaded (its path on stdout) or, for a preview, its URL.

exit codes: 0 ok, 1 other (network, 5xx), 2 usage (a file that cannot be read too), 3 not signed in /
            401 / 403, 4 not found, 5 conflict or invalid (400 / 409 / 413 / 415 / 422),
            6 allowance or limits (402 / 429), 7 job failed`;

/** `--json` is read first, wherever it is, so that even a usage error can be answered as JSON. */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.includes('--json');
}

export function parseInvocation(argv: readonly string[]): Invocation {
  const json = wantsJson(argv);
  const args = argv.filter((arg) => arg !== '--json');
  const [first, second] = args;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') return { command: { name: 'help' }, json };
  if (first === '--version' || first === 'version') {
    parse(args.slice(1), {}, 0);
    return { command: { name: 'version' }, json };
  }
  const group = ['products', 'videos', 'jobs', 'music', 'webhooks'].includes(first);
  const name = group ? `${first} ${second ?? ''}`.trim() : first;
  const rest = args.slice(group ? 2 : 1);
  return { command: parseCommand(name, rest), json };
}

function parseCommand(name: string, rest: string[]): Command {
  switch (name) {
    case 'login': {
      const { values } = parse(rest, { key: str, 'base-url': str }, 0);
      return { name, key: required(values.key, '--key'), baseUrl: values['base-url'] };
    }
    case 'products create': {
      const { values } = parse(rest, { name: str, description: str, demo: str, wait: bool }, 0);
      return { name, productName: required(values.name, '--name'), description: values.description, demo: required(values.demo, '--demo'), wait: values.wait ?? false };
    }
    case 'products list':
    case 'videos list':
    case 'music list':
    case 'usage':
      parse(rest, {}, 0);
      return { name };
    case 'hooks': {
      const { positionals } = parse(rest, {}, 1, 'PRODUCT_ID');
      return { name, productId: id(positionals[0], 'PRODUCT_ID') };
    }
    case 'videos create': {
      const { values } = parse(rest, { product: str, prompt: str, reaction: str, avatar: str, reference: str, ...hookOptions, ...voiceOptions, preview: bool, wait: bool, out: str }, 0);
      const source = reactionSource(values);
      return {
        name,
        productId: id(required(values.product, '--product'), '--product'),
        source,
        ...hook(values),
        ...sound(values),
        voiceLine: voiceLine(values['voice-line'], source.method),
        preview: values.preview ?? false,
        wait: values.wait ?? false,
        out: values.out,
      };
    }
    case 'videos batch': {
      const { values } = parse(rest, { product: str, prompt: str, reaction: str, hook: { type: 'string', multiple: true }, position: str, size: str, ...lookOptions, ...voiceOptions, wait: bool }, 0);
      if ((values.prompt === undefined) === (values.reaction === undefined)) throw new UsageError('give exactly one of --prompt TEXT or --reaction ID');
      const source = values.prompt !== undefined ? { method: 'prompt' as const, prompt: required(values.prompt, '--prompt') } : { method: 'reuse' as const, reactionId: id(values.reaction, '--reaction') };
      const hooks = values.hook ?? [];
      if (hooks.length === 0) throw new UsageError('--hook is required (once per video)');
      return {
        name,
        productId: id(required(values.product, '--product'), '--product'),
        source,
        hooks,
        position: oneOf(values.position, POSITIONS, '--position'),
        size: oneOf(values.size, SIZES, '--size'),
        ...look(values),
        ...sound(values),
        voiceLine: voiceLine(values['voice-line'], source.method),
        wait: values.wait ?? false,
      };
    }
    case 'videos download': {
      const { values, positionals } = parse(rest, { out: str }, 1, 'ID');
      return { name, videoId: id(positionals[0], 'ID'), out: values.out };
    }
    case 'jobs get': {
      const { positionals } = parse(rest, {}, 1, 'ID');
      return { name, jobId: id(positionals[0], 'ID') };
    }
    case 'jobs takes': {
      const { positionals } = parse(rest, {}, 1, 'ID');
      return { name, jobId: id(positionals[0], 'ID') };
    }
    case 'jobs approve': {
      const { values, positionals } = parse(rest, { take: str, ...hookOptions, ...soundOptions, wait: bool, out: str }, 1, 'ID');
      if (values.out !== undefined && !values.wait) throw new UsageError('--out needs --wait (the video is downloaded once the job is done)');
      return {
        name,
        jobId: id(positionals[0], 'ID'),
        take: values.take === undefined ? undefined : id(values.take, '--take'),
        ...hook(values),
        ...sound(values),
        wait: values.wait ?? false,
        out: values.out,
      };
    }
    case 'jobs regenerate': {
      const { values, positionals } = parse(rest, { prompt: str, ...lookOptions, ...voiceOptions, wait: bool }, 1, 'ID');
      return { name, jobId: id(positionals[0], 'ID'), prompt: values.prompt, ...look(values), ...sound(values), voiceLine: voiceLine(values['voice-line']), wait: values.wait ?? false };
    }
    case 'webhooks listen': {
      const { values } = parse(rest, { 'forward-to': str, events: str, 'print-secret': bool }, 0);
      if (values['print-secret']) {
        if (values['forward-to'] !== undefined || values.events !== undefined) throw new UsageError('--print-secret takes no other option');
        return { name, forwardTo: '', printSecret: true };
      }
      return { name, forwardTo: forwardUrl(required(values['forward-to'], '--forward-to')), events: eventList(values.events), printSecret: false };
    }
    case 'music add': {
      const { values, positionals } = parse(rest, { name: str }, 1, 'FILE');
      return { name, file: positionals[0]!, trackName: values.name };
    }
    case 'music delete': {
      const { positionals } = parse(rest, {}, 1, 'ID');
      return { name, musicId: trackId(positionals[0]!, 'ID') };
    }
    default:
      throw new UsageError(`unknown command: ${name || '(none)'}`);
  }
}

function parse<O extends Options>(args: string[], options: O, positionals: number, what = '') {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(positionals === 0 ? `unexpected argument: ${parsed.positionals[0]}` : parsed.positionals.length === 0 ? `${what} is required` : `unexpected argument: ${parsed.positionals[positionals]}`);
  }
  return parsed;
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

function id(value: string | undefined, what: string): number {
  if (value === undefined || !/^[1-9]\d{0,15}$/.test(value)) throw new UsageError(`${what} must be a positive integer`);
  return Number(value);
}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of ${allowed.join(', ')}`);
  return value as T;
}

function hook(values: { hook?: string; position?: string; size?: string; style?: string; 'hook-duration'?: string }) {
  return { hook: values.hook, position: oneOf(values.position, POSITIONS, '--position'), size: oneOf(values.size, SIZES, '--size'), ...look(values) };
}

function look(values: { style?: string; 'hook-duration'?: string }): HookLook {
  return { style: oneOf(values.style, STYLES, '--style'), hookDuration: oneOf(values['hook-duration'], DURATIONS, '--hook-duration') };
}

function trackId(value: string, what: string): string {
  if (!/^[a-z0-9-]{1,40}$/.test(value)) throw new UsageError(`${what} must be a track id from music list (sunny-pop, t12)`);
  return value;
}

/** The API's rule, said before anything is sent: music needs a track, and only music takes one. */
function sound(values: { sound?: string; music?: string }): Sound {
  const chosen = oneOf(values.sound, SOUNDS, '--sound');
  const musicId = values.music === undefined ? undefined : trackId(values.music, '--music');
  if (chosen === 'music' && musicId === undefined) throw new UsageError('--sound music needs --music TRACK (music list shows the tracks)');
  if (chosen !== undefined && chosen !== 'music' && musicId !== undefined) throw new UsageError(`--music is for --sound music, not --sound ${chosen}`);
  return { sound: chosen, musicId };
}

function voiceLine(value: string | undefined, method?: ReactionSource['method']): string | undefined {
  if (value === undefined) return undefined;
  if (method === 'reuse') throw new UsageError('--voice-line cannot be used with --reaction (the saved reaction plays as it was made)');
  if (!value.trim()) throw new UsageError('--voice-line must not be empty');
  if (value.length > 100) throw new UsageError('--voice-line must be at most 100 characters');
  return value;
}

/** Where listen forwards: an http(s) URL, most often on this machine. */
function forwardUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--forward-to must be a URL such as http://localhost:4000/webhooks, not ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to must be an http or https URL, not ${url.protocol}`);
  return url.toString();
}

/** Event types, comma-separated; `*` (or leaving it out) is every type. */
function eventList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const types = value.split(',').map((type) => type.trim()).filter(Boolean);
  if (types.length === 0 || types.some((type) => !/^(\*|[a-z_]+(\.[a-z_]+)+)$/.test(type))) throw new UsageError(`--events must be event types separated by commas (video.job.done,product.demo.ready), not ${value}`);
  return types.includes('*') ? undefined : types;
}

function reactionSource(values: { prompt?: string; reaction?: string; avatar?: string; reference?: string }): ReactionSource {
  const given = [values.prompt !== undefined, values.reaction !== undefined, values.avatar !== undefined || values.reference !== undefined].filter(Boolean).length;
  if (given !== 1) throw new UsageError('give exactly one of --prompt TEXT, --reaction ID, or --avatar ID with --reference FILE');
  if (values.prompt !== undefined) return { method: 'prompt', prompt: required(values.prompt, '--prompt') };
  if (values.reaction !== undefined) return { method: 'reuse', reactionId: id(values.reaction, '--reaction') };
  return { method: 'motion', avatarId: id(required(values.avatar, '--avatar'), '--avatar'), reference: required(values.reference, '--reference') };
}
