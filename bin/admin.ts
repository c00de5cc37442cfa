// Admin CLI: `npm run --silent admin -- <command>`. Talks to local mode's DynamoDB by default, or with --aws to the
// deployed tables. Prints a plaintext key only from `key create` / `key rotate`, once.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AdminService, GRACE_SECONDS_PROBLEM, type IssuedKey } from '../lib/admin';
import { assertWholeNumber } from '../lib/admin/operator-input';
import { awsActor, localActor } from '../lib/admin/actor';
import { writeLine } from '../lib/admin/output';
import { auditListOutput, auditQuery } from '../lib/admin/audit-command';
import { openLocalDatabase } from '../lib/local/connect';
import { WorkspaceAdmin, feedbackReportOutput, policyOutput } from '../lib/workspace-admin';
import { WorkspaceImporter, importFileOutput } from '../lib/admin/workspace-import';
import { workspaceModel, workspaceModelOutput } from '../lib/admin/workspace-model';
import { storedDecision, storedDecisionOutput } from '../lib/admin/decision-get';
import { migrateLearning } from '../lib/admin/migrate-learning';
import { type Flags, UsageError, optionProblem, parseCommandLine } from '../lib/admin/command-options';
import { ensureTables, tableNamesOf } from '../lib/local/provision';
import { DEFAULT_STAGE, OUTPUT_KEYS, stackNameFor } from '../lib/stack-outputs';
import { parseLocalSettings, parseSettings, parseToolSettings, regionFromEnv } from '../lambdas/contract/settings';
import { NotFoundError, SharedGrantError } from '../lambdas/domain/ports';
import { withoutApiKeys } from '../lambdas/domain/api-key';
import { formatRateLimit } from '../lambdas/domain/rate-limit';
import { DynamoAccessStore } from '../lambdas/stores/access-store';
import { DynamoAuditLog } from '../lambdas/stores/audit-store';
import { createDocumentClient } from '../lambdas/stores/dynamodb-client';
import { backfillDecisionListPartitions } from '../lambdas/stores/decision-list-backfill';

const USAGE = `Usage: npm run --silent admin -- <command> [options] [--json] [--aws]

  partner create --id <id> --name <name> [--status active|disabled|suspended|pending]
  partner set-status --id <id> --status <status>
  partner get --id <id>        (name, status, and when it last changed)
  decision get --id <decision_id>   (the stored decision, who asked for it, and its expiry)
  key create --partner <id> --workspace <ws> [--workspace <ws> ...] [--workspaces-file <path>]
             [--env live|test] [--expires-at <ISO 8601>] [--description <text>]
             [--scope analyze|read|feedback|policy ...] [--rate-limit <n>/s|m|h] [--allow-shared]
  key revoke --key-id <key_id>
  key grant --key-id <key_id> --workspace <ws or prefix*> [--workspace ...] [--workspaces-file <path>] [--allow-shared]
  key ungrant --key-id <key_id> --workspace <ws or prefix*> [--workspace ...] [--workspaces-file <path>]
  key rotate --key-id <key_id> [--grace-seconds <n>]   (default 86400, at most 315360000)
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
  decisions index-priority   (once, when upgrading: docs/deploy.md)
  workspace model --workspace <ws>   (generation, and examples held per learned field and label)
  workspace migrate-learning   (once, after upgrading to version 4: moves what workspaces learned to the learning table)
  audit list [--since <ISO 8601>] [--partner <id>] [--key-id <key_id>] [--workspace <ws>] [--limit <n>]   (default 100)
             newest first; --key-id matches events on that key and events made with it

  Every change is recorded in the audit log with its actor: local:<OS user> locally, the caller's AWS principal ARN
  (STS GetCallerIdentity) with --aws.

  --json   print one JSON object
  --aws    use the deployed tables (AWS default credentials; table names from the stack outputs, or from
           ACCESS_TABLE_NAME, DECISIONS_TABLE_NAME and LEARNING_TABLE_NAME for those set; stack name from
           SAS_STACK_NAME, else SignalAnalysisService-<SAS_STAGE>, default ${stackNameFor(DEFAULT_STAGE)})
Local mode (default) uses DynamoDB Local on LOCAL_DYNAMODB_PORT (default 8000), started by \`npm start\`;
if none is running, the CLI starts one on LOCAL_DATA_DIR for the duration of the command.`;

/** An operator's command is not latency-bound: a 100-item grant transaction on a busy DynamoDB Local may take seconds. */
const ADMIN_REQUEST_TIMEOUT_MS = 10_000;

/** What a command prints, and its exit status when not 0 (it printed its answer, but not everything succeeded). */
type Output = { json: Record<string, unknown>; text: string; code?: number };

interface Services {
  admin: AdminService;
  client: DynamoDBDocumentClient;
  decisions: string;
  learning: string;
  actor: string;
}

const rateText = (rate: { limit: number; window_seconds: number } | null) => (rate ? formatRateLimit(rate) : 'none');

/** Thousands of grants: print a count instead of the list. */
const workspacesText = (ws: string[]) =>
  ws.length > 20 ? `${ws.slice(0, 20).join(', ')}, ... (${ws.length} in all)` : ws.join(', ') || '(none)';

const keyWorkspaces = (out: { key_id: string; workspaces: string[] }): Output => ({
  json: out,
  text: `key ${out.key_id} workspaces: ${workspacesText(out.workspaces)}`,
});

const workspaceAdmin = (s: Services) => new WorkspaceAdmin(s.client, s.decisions, s.learning, s.actor);
const importer = (s: Services) => new WorkspaceImporter(s.client, s.decisions, s.learning, s.actor);

/** Commands that change nothing: they record no audit event, so they need no actor (and no STS call). */
const READ_ONLY = new Set([
  'key list',
  'partner get',
  'decision get',
  'workspace policy get',
  'feedback report',
  'audit list',
  'workspace model',
]);

const COMMANDS: Record<string, (f: Flags, s: Services) => Promise<Output>> = {
  'partner create': async (f, { admin }) => {
    const partner = await admin.createPartner({
      id: f.one('id', true),
      name: f.one('name', true),
      status: f.one('status'),
    });
    const json = { partner_id: partner.partner_id, name: partner.name, status: partner.status };
    return { json, text: `created partner ${partner.partner_id} (${partner.name}), status ${partner.status}` };
  },
  'partner set-status': async (f, { admin }) => {
    const partner = await admin.setPartnerStatus(f.one('id', true), f.one('status', true));
    return {
      json: { partner_id: partner.partner_id, status: partner.status },
      text: `partner ${partner.partner_id} is now ${partner.status}`,
    };
  },
  'partner get': async (f, { admin }) => {
    const p = await admin.requirePartner(f.one('id', true));
    const json = {
      partner_id: p.partner_id,
      name: p.name,
      status: p.status,
      created_at: p.created_at,
      updated_at: p.updated_at,
    };
    return {
      json,
      text: `partner ${p.partner_id} (${p.name}): ${p.status} since ${p.updated_at}, created ${p.created_at}`,
    };
  },
  'decision get': async (f, s) => storedDecisionOutput(await storedDecision(s.client, s.decisions, f.one('id', true))),
  'key create': async (f, { admin }) => {
    const issued = await admin.createKey({
      partnerId: f.one('partner', true),
      workspaces: await f.grants(),
      env: f.one('env'),
      expiresAt: f.one('expires-at'),
      description: f.one('description'),
      scopes: f.all('scope'),
      rateLimit: f.one('rate-limit'),
      allowShared: f.has('allow-shared'),
    });
    return { json: { ...issued }, text: issuedText(issued) };
  },
  'key revoke': async (f, { admin }) => {
    const out = await admin.revokeKey(f.one('key-id', true));
    return { json: out, text: `key ${out.key_id} is now ${out.status}` };
  },
  'key grant': async (f, { admin }) =>
    keyWorkspaces(await admin.grant(f.one('key-id', true), await f.grants(), { allowShared: f.has('allow-shared') })),
  'key ungrant': async (f, { admin }) => {
    const keyId = f.one('key-id', true);
    const grants = await f.grants();
    if (f.has('allow-shared')) throw new UsageError('--allow-shared applies to grants only');
    const out = await admin.ungrant(keyId, grants);
    const notHeld = out.not_held
      ? `\nnote: the key held no grant of ${out.not_held.join(', ')}: nothing removed there`
      : '';
    if (!out.still_allowed) return { json: out, text: `${keyWorkspaces(out).text}${notHeld}` };
    const reached = out.still_allowed.map(({ workspace, by }) => `${workspace} (through ${by})`).join(', ');
    const text = `${keyWorkspaces(out).text}${notHeld}\nwarning: the key still reaches ${reached}: ungrant the prefix to stop it`;
    return { json: out, text, code: 1 };
  },
  'key set-rate-limit': async (f, { admin }) => {
    const limit = f.one('limit');
    if ((limit === undefined) === !f.has('none')) throw new UsageError('give either --limit <n>/s|m|h or --none');
    const out = await admin.setRateLimit(f.one('key-id', true), limit ?? null);
    return { json: out, text: `key ${out.key_id} rate limit: ${rateText(out.rate_limit)}` };
  },
  'key rotate': async (f, { admin }) => {
    const grace = f.one('grace-seconds');
    // Its range is rotateKey's to check, for every caller.
    const graceSeconds = grace === undefined ? undefined : assertWholeNumber(grace, GRACE_SECONDS_PROBLEM);
    const out = await admin.rotateKey(f.one('key-id', true), graceSeconds);
    return {
      json: { ...out },
      text: `${issuedText(out)}\nold key ${out.old_key_id} expires at ${out.old_key_expires_at}`,
    };
  },
  'key migrate-grants': async (_, { admin }) => {
    const out = await admin.migrateLegacyGrants();
    return {
      json: out,
      text: `moved ${out.grants_migrated} grant(s) of ${out.keys_migrated} key(s) from version 1 lists into grant items`,
    };
  },
  'key list': async (f, { admin }) => {
    const out = await admin.listKeys(f.one('partner', true));
    const lines = out.keys.map(
      (k) =>
        `${k.key_id}  ${k.prefix}…  ${(k.status === 'active' && k.expired ? 'expired' : k.status).padEnd(7)}  ` +
        `scopes ${k.scopes.join(',') || '(none)'}  limit ${rateText(k.rate_limit)}  ${workspacesText(k.workspaces)}  ` +
        `created ${k.created_at}${k.expires_at ? `  ${k.expired ? 'expired' : 'expires'} ${k.expires_at}` : ''}` +
        (k.replaced_by ? `  replaced by ${k.replaced_by}` : ''),
    );
    return { json: out, text: lines.length ? lines.join('\n') : `partner ${out.partner_id} has no keys` };
  },
  'workspace policy get': async (f, s) => policyOutput(await workspaceAdmin(s).getPolicy(f.one('workspace', true))),
  'workspace policy set': async (f, s) =>
    policyOutput(await workspaceAdmin(s).setPolicy(f.one('workspace', true), f.path('file', true))),
  'feedback report': async (f, s) =>
    feedbackReportOutput(await workspaceAdmin(s).feedbackReport(f.one('workspace', true), f.one('since'))),
  'workspace import': (f, s) => importFileOutput(importer(s), f.one('workspace', true), f.path('file', true)),
  'workspace forget': async (f, s) => {
    const out = await importer(s).forget(f.one('workspace', true));
    return { json: { ...out }, text: `workspace ${out.workspace_id}: model forgotten` };
  },
  'workspace migrate-learning': async (_f, s) => {
    const out = await migrateLearning(s.client, s);
    const failed = out.failed.length
      ? `, ${out.failed.length} failed (run it again: each goes on where it stopped)`
      : '';
    return {
      json: { ...out },
      text: [
        `${out.migrated} of ${out.workspaces} workspaces migrated (${out.examples} label examples)${failed}` +
          (out.workspaces - out.migrated - out.failed.length > 0 ? '; the rest were before' : ''),
        ...out.failed.map((f) => `  ${f.workspace_id}: ${f.error}`),
      ].join('\n'),
      // Not every workspace migrated: exit 1, for a script as for the operator.
      code: out.failed.length ? 1 : 0,
    };
  },
  'workspace model': async (f, s) => workspaceModelOutput(await workspaceModel(s.client, s, f.one('workspace', true))),
  'audit list': async (f, s) => {
    const query = auditQuery((n) => f.one(n));
    // Partners are never deleted: an unknown one is a typo, refused as key list refuses it.
    if (query.partnerId !== undefined) await s.admin.requirePartner(query.partnerId);
    return auditListOutput(await new DynamoAuditLog(s.client, s.decisions).list(query));
  },
  // docs/deploy.md, "Upgrading a deployed stack: the listing index": between its two deploys.
  'decisions index-priority': async (_f, s) => {
    const out = await backfillDecisionListPartitions(s.client, s.decisions);
    return {
      json: { ...out },
      text: `${out.updated} decisions given their listing partition (${out.found - out.updated} gone meanwhile)`,
    };
  },
};

function issuedText(k: IssuedKey): string {
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

async function awsTables(region?: string): Promise<{
  client: DynamoDBDocumentClient;
  access: string;
  decisions: string;
  learning: string;
}> {
  const { stackName, accessTableName, decisionsTableName, learningTableName } = parseToolSettings(process.env);
  let access = accessTableName;
  let decisions = decisionsTableName;
  let learning = learningTableName;
  // Any name not given comes from the stack: its tables' names are generated, so none can be derived from another.
  if (!access || !decisions || !learning) {
    // Loaded here, not on import: most commands run locally, and this client is a tenth of a local command's start.
    const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
    const cfn = new CloudFormationClient({ region });
    const out = await cfn.send(new DescribeStacksCommand({ StackName: stackName }));
    access ??= out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === OUTPUT_KEYS.accessTable)?.OutputValue;
    decisions ??= out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === OUTPUT_KEYS.decisionsTable)?.OutputValue;
    learning ??= out.Stacks?.[0]?.Outputs?.find((o) => o.OutputKey === OUTPUT_KEYS.learningTable)?.OutputValue;
    if (!access) throw new Error(`stack ${stackName} has no ${OUTPUT_KEYS.accessTable} output`);
    if (!decisions) throw new Error(`stack ${stackName} has no ${OUTPUT_KEYS.decisionsTable} output`);
    if (!learning) throw new Error(`stack ${stackName} has no ${OUTPUT_KEYS.learningTable} output`);
  }
  return {
    client: createDocumentClient({ region, requestTimeoutMs: ADMIN_REQUEST_TIMEOUT_MS }),
    access,
    decisions,
    learning,
  };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    // A key pasted where a word or an option goes is named, never repeated (on the terminal and in a script's log).
    const message = withoutApiKeys((err as Error).message);
    // A script that asked for JSON reads the error as every other one: the command line could not be parsed.
    if (message && argv.includes('--json')) await writeLine(process.stdout, JSON.stringify({ error: { message } }));
    // --help is the answer asked for: on stdout, exit 0 (`admin -- --help | less` reads it). A usage error is not.
    if (!message) {
      await writeLine(process.stdout, USAGE);
      return 0;
    }
    console.error(`error: ${message}\n`);
    console.error(USAGE);
    return 2;
  }
  const { words, flags } = parsed;
  const [aws, json] = [flags.has('aws'), flags.has('json')];
  // A signal's own default ends the process without its 'exit' handlers, one of which stops the DynamoDB Local this
  // run started (left running, it holds the port and the data directory). Exiting runs them.
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
  process.once('SIGHUP', () => process.exit(129));

  let stopDb: (() => Promise<void>) | undefined;
  let region: string | undefined;
  let client: DynamoDBDocumentClient | undefined;
  try {
    const name = words.join(' ');
    const command = COMMANDS[name] as (typeof COMMANDS)[string] | undefined;
    if (!command) throw new UsageError(name ? `unknown command "${name}"` : 'no command given');
    const misplaced = optionProblem(name, flags.names());
    if (misplaced) throw new UsageError(misplaced);
    let access: string;
    let decisions: string;
    let learning: string;
    if (aws) {
      // The region the environment names (AWS_REGION, AWS_DEFAULT_REGION), for every AWS client alike.
      region = regionFromEnv(process.env);
      ({ client, access, decisions, learning } = await awsTables(region));
    } else {
      const local = parseLocalSettings(process.env);
      const settings = parseSettings(process.env);
      const db = await openLocalDatabase({ port: local.dynamodbPort, dataDir: local.dataDir, region: settings.region });
      stopDb = db.stop;
      ({ access, decisions, learning } = tableNamesOf(settings));
      client = createDocumentClient({ ...db.clientOptions, requestTimeoutMs: ADMIN_REQUEST_TIMEOUT_MS });
      await ensureTables(client, { access, decisions, learning });
    }
    // The audit events' actor; a command that changes nothing needs none (and no STS call). With --aws, asking STS
    // also checks this machine's clock (awsActor): `workspace model` changes nothing but runs a fold that is due.
    const checksClock = aws && (!READ_ONLY.has(name) || name === 'workspace model');
    const actor = checksClock ? await awsActor(region) : READ_ONLY.has(name) ? 'none' : localActor();
    const admin = new AdminService(new DynamoAccessStore(client, access, decisions), { actor });
    const out = await command(flags, { admin, client, decisions, learning, actor });
    await writeLine(process.stdout, json ? JSON.stringify(out.json) : out.text);
    return out.code ?? 0;
  } catch (err) {
    // Any value an operator typed that looks like an API key (a key pasted as a command word, an option's value, a
    // file name) is written `<API key>`: a message repeats what it refuses.
    const message = withoutApiKeys(
      err instanceof NotFoundError
        ? `unknown ${err.message.replace(/ not found$/, '')}`
        : err instanceof SharedGrantError
          ? `${err.message}. A revoked or expired key's workspaces still hold its partner's decisions, policy and ` +
            'learned model: use other workspace ids, or give --allow-shared if the partners should share them.'
          : (err as Error).message,
    );
    if (json) {
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
      await writeLine(process.stdout, JSON.stringify({ error: { message, ...conflicts } })).catch(() => undefined);
    }
    await writeLine(process.stderr, `error: ${message}${err instanceof UsageError ? `\n\n${USAGE}` : ''}`).catch(
      () => undefined,
    );
    return err instanceof UsageError ? 2 : 1;
  } finally {
    client?.destroy();
    await stopDb?.();
  }
}

void main(process.argv.slice(2)).then((code) => process.exit(code));
