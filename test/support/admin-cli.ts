// The admin CLI as an operator runs it: a real process, run directly with node (what `npm run admin` runs) to keep
// the suite quick, from the run's bundle of it when there is one (admin-cli-bundle.ts; jest's global setup builds
// it). Any exit status is returned, not thrown, with stdout parsed as JSON where it is JSON.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { TableNames } from '../../lib/local/provision';
import { learningTableOf } from '../../lambdas/contract/settings';
import { testEndpoint } from './dynamodb';
import { type TestApi, useApiWithKey } from './local-api';
import { TSX_NODE_ARGS } from './tsx';

const exec = promisify(execFile);
const repo = resolve(__dirname, '..', '..');

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

const parse = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
};

export async function runAdmin(env: NodeJS.ProcessEnv, args: string[]): Promise<AdminResult> {
  try {
    const bundle = process.env.TEST_ADMIN_CLI;
    // The ESM-only packages' hook (TSX_NODE_ARGS' first two) is needed either way; tsx only for the TypeScript entry.
    const entry = bundle ? [...TSX_NODE_ARGS.slice(0, 2), bundle] : [...TSX_NODE_ARGS, 'bin/admin.ts'];
    const { stdout, stderr } = await exec('node', [...entry, ...args], { cwd: repo, env });
    return { code: 0, stdout, stderr, json: parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, json: parse(e.stdout) };
  }
}

/** The environment that points the admin CLI at this run's DynamoDB Local and the tables `names`. */
export function adminCliEnv(names: TableNames): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LOCAL_DYNAMODB_PORT: new URL(testEndpoint()).port,
    ACCESS_TABLE_NAME: names.access,
    DECISIONS_TABLE_NAME: names.decisions,
    // All three: with --aws a name not given comes from the stack (bin/admin.ts awsTables).
    LEARNING_TABLE_NAME: learningTableOf({ decisionsTableName: names.decisions, learningTableName: names.learning }),
  };
}

/** A command line as an operator types it (words without spaces), as runAdmin's arguments. */
export const argv = (line: string): string[] => line.split(' ');

export interface ApiWithAdminCli {
  api: TestApi;
  /** Partner `acme`'s key, granted the file's workspaces. */
  key: string;
  env: NodeJS.ProcessEnv;
  /** The CLI with `--json`. */
  admin: (...args: string[]) => Promise<AdminResult>;
}

/**
 * A local API (workspace cache off, so what the CLI writes is what the next request reads) with partner `acme` granted
 * `workspaces`, and the admin CLI pointed at its tables: started before the calling file's tests, closed after them.
 */
export function apiWithAdminCli(name: string, workspaces: string[]): ApiWithAdminCli {
  const withKey = useApiWithKey(name, workspaces, { workspaceCacheTtlSeconds: 0 });
  const t = {
    get api() {
      return withKey.api;
    },
    get key() {
      return withKey.key;
    },
    get env() {
      return adminCliEnv(withKey.api.tables.names);
    },
    admin: (...args: string[]) => runAdmin(t.env, [...args, '--json']),
  };
  return t;
}
