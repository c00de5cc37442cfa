// The admin CLI's options per command (bin/admin.ts; README, Admin CLI): what each command takes, so that any other is
// refused instead of ignored.

/** The options each command takes, besides --json, --aws and --help (as USAGE lists them). */
const COMMAND_OPTIONS: Record<string, readonly string[]> = {
  'partner create': ['id', 'name', 'status'],
  'partner set-status': ['id', 'status'],
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
