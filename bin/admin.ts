// Admin CLI: `npm run --silent admin -- <command>`. Talks to local mode's DynamoDB by default, or with --aws to the
// deployed tables. Prints a plaintext key only from `key create` / `key rotate`, once.
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AdminInputError, AdminService } from '../lib/admin';
import { readWorkspacesFile } from '../lib/admin/workspaces-file';
import { awsActor, localActor } from '../lib/admin/actor';
import { runAuditCommand } from '../lib/admin/audit-command';
import { openLocalDatabase } from '../lib/local/connect';
import { WorkspaceAdmin, runWorkspaceCommand } from '../lib/workspace-admin';
import { WorkspaceImporter, runImportCommand } from '../lib/admin/workspace-import';
import { ensureTables } from '../lib/local/provision';
import { DEFAULT_STAGE, OUTPUT_KEYS, stackNameFor } from '../lib/stack-outputs';
import { ENV, parseLocalSettings, parseSettings } from '../lambdas/contract/settings';
import { NotFoundError, SharedGrantError } from '../lambdas/domain/ports';
import { formatRateLimit } from '../lambdas/domain/rate-limit';
import { DynamoAccessStore } from '../lambdas/stores/access-store';
import { DynamoAuditLog } from '../lambdas/stores/audit-store';
import { createDocumentClient } from '../lambdas/stores/dynamodb-client';

const USAGE = `Usage: npm run --silent admin -- <command> [options] [--json] [--aws]

  partner create --id <id> --name <name> [--status active|disabled|suspended|pending]
  partner set-status --id <id> --status <status>
  key create --partner <id> --workspace <ws> [--workspace <ws> ...] [--workspaces-file <path>]
             [--env live|test] [--expires-at <ISO 8601>] [--description <text>]
             [--scope analyze|read|feedback|policy ...] [--rate-limit <n>/s|m|h] [--allow-shared]
  key revoke --key-id <key_id>
  key grant --key-id <key_id> --workspace <ws or prefix*> [--workspace ...] [--workspaces-file <path>] [--allow-shared]
  key ungrant --key-id <key_id> --workspace <ws or prefix*> [--workspace ...] [--workspaces-file <path>]
  key rotate --key-id <key_id> [--grace-seconds <n>]   (default 86400)
  key set-rate-limit --key-id <key_id> (--limit <n>/s|m|h | --none)
  key list --partner <id>
  key migrate-grants          (once, after upgrading from version 1: moves keys' workspace lists into grants)

  A grant is a workspace id or a prefix ending in * (at least 3 characters before it; acme:* covers acme:eu, ...).
  --workspaces-file holds one workspace id or prefix a line (blank lines and # comments skipped).
  --scope is repeatable (default: all four). --allow-shared grants workspaces another partner's key holds.
  workspace policy get --workspace <ws>
  workspace policy set --workspace <ws> --file <policy.json>
  feedback report --workspace <ws> [--since <ISO 8601>]
  workspace import --workspace <ws> --file <examples.jsonl or .csv>
  workspace forget --workspace <ws>
  audit list [--since <ISO 8601>] [--partner <id>] [--key-id <key_id>] [--workspace <ws>] [--limit <n>]   (default 100)
             newest first; --key-id matches events on that key and events made with it

  Every change is recorded in the audit log with its actor: local:<OS user> locally, the caller's AWS principal ARN
  (STS GetCallerIdentity) with --aws.

  --json   print one JSON object
  --aws    use the deployed tables (AWS default credentials; table names from the stack outputs,
           or ACCESS_TABLE_NAME; stack name from SAS_STACK_NAME, default ${stackNameFor(DEFAULT_STAGE)})
Local mode (default) uses DynamoDB Local on LOCAL_DYNAMODB_PORT (default 8000), started by \`npm start\`;
if none is running, the CLI starts one on LOCAL_DATA_DIR for the duration of the command.`;

class UsageError extends Error {}

const READ_ONLY_COMMANDS = new Set(['key list', 'audit list', 'workspace policy get', 'feedback report']);

/** An operator's command is not latency-bound: a 100-item grant transaction on a busy DynamoDB Local may take seconds. */
const ADMIN_REQUEST_TIMEOUT_MS = 10_000;

interface Parsed {
  words: string[];
  flags: Map<string, string[]>;
  json: boolean;
  aws: boolean;
}

const VALUE_FLAGS = new Set([
  'id',
  'name',
  'status',
  'partner',
  'workspace',
  'env',
  'expires-at',
  'description',
  'key-id',
  'grace-seconds',
  'workspaces-file',
  'scope',
  'rate-limit',
  'limit',
  'file',
  'since',
]);
/** Options without a value. */
const SWITCHES = new Set(['allow-shared', 'none']);

export function parseArgs(argv: string[]): Parsed {
  const parsed: Parsed = { words: [], flags: new Map(), json: false, aws: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') parsed.json = true;
    else if (arg === '--aws') parsed.aws = true;
    else if (arg === '--help' || arg === '-h') throw new UsageError('');
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      if (SWITCHES.has(name) && eq === -1) {
        parsed.flags.set(name, ['true']);
        continue;
      }
      if (!VALUE_FLAGS.has(name)) throw new UsageError(`unknown option --${name}`);
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      parsed.flags.set(name, [...(parsed.flags.get(name) ?? []), value]);
    } else parsed.words.push(arg);
  }
  return parsed;
}

function one(p: Parsed, name: string, required = true): string | undefined {
  const values = p.flags.get(name);
  if (!values?.length) {
    if (required) throw new UsageError(`--${name} is required`);
    return undefined;
  }
  if (values.length > 1) throw new UsageError(`--${name} given more than once`);
  return values[0];
}

type Output = { json: Record<string, unknown>; text: string };

const has = (p: Parsed, name: string) => p.flags.has(name);

/** Every --workspace, then every line of --workspaces-file. */
async function grantsOf(p: Parsed): Promise<string[]> {
  const file = one(p, 'workspaces-file', false);
  return [...(p.flags.get('workspace') ?? []), ...(file === undefined ? [] : await readWorkspacesFile(file))];
}

const rateText = (rate: { limit: number; window_seconds: number } | null) => (rate ? formatRateLimit(rate) : 'none');

/** Thousands of grants: print a count instead of the list. */
const workspacesText = (ws: string[]) =>
  ws.length > 20 ? `${ws.slice(0, 20).join(', ')}, ... (${ws.length} in all)` : ws.join(', ') || '(none)';

async function run(
  p: Parsed,
  admin: AdminService,
  workspaces: () => WorkspaceAdmin,
  audit: () => DynamoAuditLog,
  importer: () => WorkspaceImporter,
): Promise<Output> {
  const command = p.words.join(' ');
  const workspaceOut =
    (await runWorkspaceCommand(command, (name) => one(p, name, false), workspaces)) ??
    (await runImportCommand(command, (name) => one(p, name, false), importer));
  if (workspaceOut) return workspaceOut;
  const auditOut = await runAuditCommand(command, (name) => one(p, name, false), audit);
  if (auditOut) return auditOut;
  switch (command) {
    case 'partner create': {
      const partner = await admin.createPartner({
        id: one(p, 'id')!,
        name: one(p, 'name')!,
        status: one(p, 'status', false),
      });
      const json = { partner_id: partner.partner_id, name: partner.name, status: partner.status };
      return { json, text: `created partner ${partner.partner_id} (${partner.name}), status ${partner.status}` };
    }
    case 'partner set-status': {
      const partner = await admin.setPartnerStatus(one(p, 'id')!, one(p, 'status')!);
      return {
        json: { partner_id: partner.partner_id, status: partner.status },
        text: `partner ${partner.partner_id} is now ${partner.status}`,
      };
    }
    case 'key create': {
      const issued = await admin.createKey({
        partnerId: one(p, 'partner')!,
        workspaces: await grantsOf(p),
        env: one(p, 'env', false),
        expiresAt: one(p, 'expires-at', false),
        description: one(p, 'description', false),
        scopes: p.flags.get('scope'),
        rateLimit: one(p, 'rate-limit', false),
        allowShared: has(p, 'allow-shared'),
      });
      return { json: { ...issued }, text: issuedText(issued) };
    }
    case 'key revoke': {
      const out = await admin.revokeKey(one(p, 'key-id')!);
      return { json: out, text: `key ${out.key_id} is now ${out.status}` };
    }
    case 'key grant':
    case 'key ungrant': {
      const keyId = one(p, 'key-id')!;
      const grants = await grantsOf(p);
      if (command === 'key ungrant' && has(p, 'allow-shared'))
        throw new UsageError('--allow-shared applies to grants only');
      const out =
        command === 'key grant'
          ? await admin.grant(keyId, grants, { allowShared: has(p, 'allow-shared') })
          : await admin.ungrant(keyId, grants);
      return { json: out, text: `key ${out.key_id} workspaces: ${workspacesText(out.workspaces)}` };
    }
    case 'key set-rate-limit': {
      const limit = one(p, 'limit', false);
      if ((limit === undefined) === !has(p, 'none')) throw new UsageError('give either --limit <n>/s|m|h or --none');
      const out = await admin.setRateLimit(one(p, 'key-id')!, limit ?? null);
      return { json: out, text: `key ${out.key_id} rate limit: ${rateText(out.rate_limit)}` };
    }
    case 'key rotate': {
      const grace = one(p, 'grace-seconds', false);
      if (grace !== undefined && !/^\d+$/.test(grace))
        throw new AdminInputError('--grace-seconds must be a non-negative whole number');
      const out = await admin.rotateKey(one(p, 'key-id')!, grace === undefined ? undefined : Number(grace));
      return {
        json: { ...out },
        text: `${issuedText(out)}\nold key ${out.old_key_id} expires at ${out.old_key_expires_at}`,
      };
    }
    case 'key migrate-grants': {
      const out = await admin.migrateLegacyGrants();
      return {
        json: out,
        text: `moved ${out.grants_migrated} grant(s) of ${out.keys_migrated} key(s) from version 1 lists into grant items`,
      };
    }
    case 'key list': {
      const out = await admin.listKeys(one(p, 'partner')!);
      const lines = out.keys.map(
        (k) =>
          `${k.key_id}  ${k.prefix}…  ${k.status.padEnd(7)}  scopes ${k.scopes.join(',') || '(none)'}  limit ${rateText(k.rate_limit)}  ` +
          `${workspacesText(k.workspaces)}  created ${k.created_at}${k.expires_at ? `  expires ${k.expires_at}` : ''}`,
      );
      return { json: out, text: lines.length ? lines.join('\n') : `partner ${out.partner_id} has no keys` };
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

function issuedText(k: {
  key: string;
  key_id: string;
  partner_id: string;
  workspaces: string[];
  expires_at: string | null;
  scopes: string[];
  rate_limit: { limit: number; window_seconds: number } | null;
}): string {
  return [
    `key (shown once, store it now): ${k.key}`,
    `key_id: ${k.key_id}`,
    `partner: ${k.partner_id}`,
    `workspaces: ${workspacesText(k.workspaces)}`,
    `scopes: ${k.scopes.join(', ')}`,
    `rate limit: ${rateText(k.rate_limit)}`,
    `expires_at: ${k.expires_at ?? 'never'}`,
  ].join('\n');
}

async function awsTables(): Promise<{ client: DynamoDBDocumentClient; access: string; decisions: string }> {
  let access = process.env[ENV.accessTableName];
  let decisions = process.env[ENV.decisionsTableName];
  if (!access || !decisions) {
    const stackName = process.env[ENV.stackName] || stackNameFor(process.env[ENV.stage] || DEFAULT_STAGE);
    const cfn = new CloudFormationClient({});
    const out = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
    access ??= out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === OUTPUT_KEYS.accessTable)?.OutputValue;
    decisions ??= out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === OUTPUT_KEYS.decisionsTable)?.OutputValue;
    if (!access) throw new Error(`stack ${stackName} has no ${OUTPUT_KEYS.accessTable} output`);
    if (!decisions) throw new Error(`stack ${stackName} has no ${OUTPUT_KEYS.decisionsTable} output`);
  }
  return { client: createDocumentClient({ requestTimeoutMs: ADMIN_REQUEST_TIMEOUT_MS }), access, decisions };
}

async function main(argv: string[]): Promise<number> {
  // Node 20 runs the SDK fine; its upgrade notice would only clutter the CLI's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  let parsed: Parsed;
  try {
    parsed = parseArgs(argv);
  } catch (err) {
    const message = (err as Error).message;
    if (message) console.error(`error: ${message}\n`);
    console.error(USAGE);
    return message ? 2 : 0;
  }

  let stopDb: (() => Promise<void>) | undefined;
  let client: DynamoDBDocumentClient | undefined;
  try {
    let access: string;
    let decisions: string;
    if (parsed.aws) {
      ({ client, access, decisions } = await awsTables());
    } else {
      const local = parseLocalSettings(process.env);
      const db = await openLocalDatabase({
        port: local.dynamodbPort,
        dataDir: local.dataDir,
        region: parseSettings(process.env).region,
      });
      stopDb = db.stop;
      access = process.env.ACCESS_TABLE_NAME || 'sas-access';
      client = createDocumentClient({
        endpoint: db.endpoint,
        region: db.credentials.region,
        localAccessKeyId: db.credentials.accessKeyId,
        httpAgent: db.httpAgent,
        requestTimeoutMs: ADMIN_REQUEST_TIMEOUT_MS,
      });
      decisions = process.env.DECISIONS_TABLE_NAME || 'sas-decisions';
      await ensureTables(client, { access, decisions });
    }
    const db = client;
    // The audit events' actor; a command that changes nothing needs none (and no STS call).
    const actor = READ_ONLY_COMMANDS.has(parsed.words.join(' '))
      ? 'none'
      : parsed.aws
        ? await awsActor()
        : localActor();
    const out = await run(
      parsed,
      new AdminService(new DynamoAccessStore(client, access, decisions), { actor }),
      () => new WorkspaceAdmin(db, decisions, actor),
      () => new DynamoAuditLog(db, decisions),
      () => new WorkspaceImporter(db, decisions, actor),
    );
    console.log(parsed.json ? JSON.stringify(out.json) : out.text);
    return 0;
  } catch (err) {
    const message =
      err instanceof NotFoundError
        ? `unknown ${err.message.replace(/ not found$/, '')}`
        : err instanceof SharedGrantError
          ? `${err.message}. Give --allow-shared if the partners should share them.`
          : (err as Error).message;
    if (parsed.json) {
      const conflicts =
        err instanceof SharedGrantError
          ? {
              conflicts: err.conflicts.map(({ grant, held }) => ({
                grant,
                held_grant: held.grant,
                key_id: held.key_id,
                partner_id: held.partner_id,
              })),
            }
          : {};
      console.log(JSON.stringify({ error: { message, ...conflicts } }));
    }
    console.error(`error: ${message}`);
    if (err instanceof UsageError) console.error(`\n${USAGE}`);
    return err instanceof UsageError ? 2 : 1;
  } finally {
    client?.destroy();
    await stopDb?.();
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
