// The admin CLI's command line (bin/admin.ts; README, Admin CLI): its words and options, read as a command's Flags, and
// what each command takes, so that any other is refused instead of ignored.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseToolSettings } from '../../lambdas/contract/settings';
import { readWorkspacesFile } from './workspaces-file';

/** The options each command takes, besides --json, --aws and --help (as USAGE lists them). */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  'partner create': ['id', 'name', 'status'],
  'partner set-status': ['id', 'status'],
  'partner get': ['id'],
  'decision get': ['id'],
  'key create': [
    'partner',
    'workspace',
    'workspaces-file',
    'env',
    'expires-at',
    'description',
    'scope',
    'rate-limit',
    'allow-shared',
  ],
  'key revoke': ['key-id'],
  'key grant': ['key-id', 'workspace', 'workspaces-file', 'allow-shared'],
  'key ungrant': ['key-id', 'workspace', 'workspaces-file'],
  'key set-rate-limit': ['key-id', 'limit', 'none'],
  'key rotate': ['key-id', 'grace-seconds'],
  'key migrate-grants': [],
  'key list': ['partner'],
  'workspace policy get': ['workspace'],
  'workspace policy set': ['workspace', 'file'],
  'feedback report': ['workspace', 'since'],
  'workspace import': ['workspace', 'file'],
  'workspace forget': ['workspace'],
  'workspace migrate-learning': [],
  'workspace model': ['workspace'],
  'audit list': ['since', 'partner', 'key-id', 'workspace', 'limit'],
  'decisions index-priority': [],
};
/** The same meaning under another command's name: the likely slip. */
const SPELLED_ELSEWHERE: Record<string, string> = { limit: 'rate-limit', 'rate-limit': 'limit' };

/**
 * The first option given that the command does not take, as a usage message (undefined: none). Refused before anything
 * runs: ignored, `key create --limit 600/m` made a key with no limit at all.
 */
export function optionProblem(command: string, given: readonly string[]): string | undefined {
  const takes = new Set([...(COMMAND_OPTIONS[command] ?? []), 'json', 'aws', 'help']);
  const name = given.find((option) => !takes.has(option));
  if (name === undefined) return undefined;
  const other = SPELLED_ELSEWHERE[name];
  return `--${name} does not apply to ${command}${other && takes.has(other) ? ` (did you mean --${other}?)` : ''}`;
}

/** A command line the CLI cannot run: it prints the message and its usage, and exits 2. */
export class UsageError extends Error {}

const VALUE_OPTIONS = ['id', 'name', 'status', 'partner', 'workspace', 'env', 'expires-at', 'description', 'key-id']
  .concat(['grace-seconds', 'workspaces-file', 'scope', 'rate-limit', 'limit', 'file', 'since'])
  .map((name) => [name, { type: 'string', multiple: true }] as const);
const OPTIONS = {
  ...Object.fromEntries(VALUE_OPTIONS),
  'allow-shared': { type: 'boolean' },
  none: { type: 'boolean' },
  json: { type: 'boolean' },
  aws: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** A command's options: one value (required or not), every value, or a switch. */
export class Flags {
  constructor(
    private readonly values: Record<string, string[] | boolean | undefined>,
    /** Where relative file paths start: the operator's directory, not the repository `npm run` moves to. */
    private readonly baseDir: string,
  ) {}

  /** A file option's path, resolved from the directory the operator typed the command in. */
  path(name: string, required: true): string;
  path(name: string, required?: false): string | undefined;
  path(name: string, required = false): string | undefined {
    const value = required ? this.one(name, true) : this.one(name);
    return value === undefined ? undefined : resolve(this.baseDir, value);
  }

  one(name: string, required: true): string;
  one(name: string, required?: false): string | undefined;
  one(name: string, required = false): string | undefined {
    const values = this.all(name);
    if (!values.length && required) throw new UsageError(`--${name} is required`);
    if (values.length > 1) throw new UsageError(`--${name} given more than once`);
    return values[0];
  }

  all(name: string): string[] {
    return (this.values[name] as string[] | undefined) ?? [];
  }

  has(name: string): boolean {
    return this.values[name] === true;
  }

  /** Every option given. */
  names(): string[] {
    return Object.keys(this.values).filter((name) => this.values[name] !== undefined);
  }

  /** Every --workspace, then every line of --workspaces-file; neither given is a usage error, as a missing option. */
  async grants(): Promise<string[]> {
    const file = this.path('workspaces-file');
    if (file === undefined && !this.all('workspace').length) {
      throw new UsageError('--workspace (or --workspaces-file) is required');
    }
    return [...this.all('workspace'), ...(file === undefined ? [] : await readWorkspacesFile(file))];
  }
}

export function parseCommandLine(argv: string[]): { words: string[]; flags: Flags } {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.values.help) throw new UsageError('');
  const baseDir = parseToolSettings(process.env).operatorDir ?? process.cwd();
  return { words: parsed.positionals, flags: new Flags(parsed.values, baseDir) };
}
