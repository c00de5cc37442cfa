// The examples a partner copies from docs/partners.md, run as written against the local HTTP API: every curl command
// (its flags read as curl reads them, `$SAS_BASE_URL` and `$SAS_API_KEY` filled in), every TypeScript snippet with the
// SDK, the Node.js module without it, and the answers printed beside them (`# {...}` under a command, the JSON blocks).
// Also the README's first decision: the answer to the command local mode prints. Field names, codes and shapes must
// be the service's; ids and times may differ.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runInThisContext } from 'node:vm';
import ts from 'typescript';
import * as sdk from '../../sdk/src';
import { type TestApi, partnerWithKey, startTestApi } from '../support/local-api';
import { type Reply, call } from '../support/http';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');
const guide = readFileSync(path.join(ROOT, 'docs/partners.md'), 'utf8');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const blocks = (text: string, lang: string) =>
  [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);

let api: TestApi;
let key: string;
/** Another partner's key, for the tests that need a workspace of their own: the guide's walk puts a policy on ws_demo. */
let ownKey: string;
let env: Record<string, string>;
beforeAll(async () => {
  api = await startTestApi('partner-guide-examples');
  ({ key } = await partnerWithKey(api.admin, 'demo', ['ws_demo']));
  ({ key: ownKey } = await partnerWithKey(api.admin, 'readers', ['ws_readme', 'ws_step2']));
  env = { SAS_BASE_URL: api.baseUrl, SAS_API_KEY: key };
}, 60_000);
afterAll(async () => api?.close());

/** A shell command line's words as sh splits them: quotes, `$NAME` in double quotes and bare words, `#` comments. */
function shellWords(line: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  const expand = (text: string) =>
    text.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (_, name: string) => {
      if (!(name in vars)) throw new Error(`the example uses $${name}, which the guide does not set`);
      return vars[name];
    });
  for (let i = 0; i < line.length;) {
    const c = line[i];
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      i++;
    } else if (c === '#' && word === undefined) {
      break;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1);
      word = (word ?? '') + expand(line.slice(i + 1, end));
      i = end + 1;
    } else {
      const m = /^[^\s'"]+/.exec(line.slice(i))![0];
      word = (word ?? '') + expand(m);
      i += m.length;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

interface Curl {
  line: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A curl command's request, read as curl reads these flags; a flag the guide starts using must be taught here. */
function curlRequest(line: string, vars: Record<string, string>): Curl {
  const words = shellWords(line, vars);
  expect(words[0]).toBe('curl');
  const request: Curl = { line, method: '', url: '', headers: {} };
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (['-s', '-S', '-sS', '-i'].includes(w)) continue;
    if (w === '--retry' || w === '--retry-max-time') i++;
    else if (w === '-X') request.method = words[++i];
    else if (w === '-H') {
      const [name, ...value] = words[++i].split(':');
      request.headers[name.trim()] = value.join(':').trim();
    } else if (w === '--data' || w === '-d') request.body = words[++i];
    else if (!w.startsWith('-') && !request.url) request.url = w;
    else throw new Error(`curl flag ${w} is not understood by this test: ${line}`);
  }
  request.method ||= request.body === undefined ? 'GET' : 'POST';
  return request;
}

/** The curl commands of the guide's `sh` blocks, in order, each with the answer printed under it (`# ...`), if any. */
function guideCommands(): Array<{ line: string; shown?: string }> {
  const commands: Array<{ line: string; shown?: string }> = [];
  for (const block of blocks(guide, 'sh')) {
    let open: string | undefined; // a command whose single-quoted body goes on over lines
    for (const line of block.replace(/\\\n\s*/g, ' ').split('\n')) {
      if (open !== undefined) open += `\n${line}`;
      else if (line.startsWith('curl ')) open = line;
      else if (/^# [A-Za-z-]+: |^# \{/.test(line) && commands.length)
        commands[commands.length - 1].shown = line.slice(2);
      if (open !== undefined && (open.match(/'/g) ?? []).length % 2 === 0) {
        commands.push({ line: open });
        open = undefined;
      }
    }
  }
  return commands;
}

/**
 * Whether an answer matches what the guide prints: the same fields (only those shown when the guide elides some with
 * `...`), the same values, except ids and times (and strings the guide shortens with `…`), which need only be there.
 */
function mismatches(shown: unknown, actual: unknown, where = '', elided = false): string[] {
  const at = where || '(answer)';
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: not an array`];
    if (shown.length === 0 && elided) return [];
    if (shown.length !== actual.length) return [`${at}: ${actual.length} items, the guide shows ${shown.length}`];
    return shown.flatMap((item, i) => mismatches(item, actual[i], `${where}[${i}]`, elided));
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object') return [`${at}: not an object`];
    const problems: string[] = [];
    const shownKeys = Object.keys(shown);
    const actualKeys = Object.keys(actual);
    for (const k of shownKeys.filter((k) => !actualKeys.includes(k))) problems.push(`${where}.${k}: not answered`);
    if (!elided)
      for (const k of actualKeys.filter((k) => !shownKeys.includes(k))) problems.push(`${where}.${k}: not shown`);
    for (const k of shownKeys.filter((k) => actualKeys.includes(k)))
      problems.push(
        ...mismatches(
          (shown as Record<string, unknown>)[k],
          (actual as Record<string, unknown>)[k],
          `${where}.${k}`,
          elided,
        ),
      );
    return problems;
  }
  const field = where.split('.').pop() ?? '';
  const free = /(_id|_at|respond_by)$/.test(field) || (typeof shown === 'string' && shown.includes('…'));
  if (free && typeof shown === 'string') return typeof actual === 'string' ? [] : [`${at}: not a string`];
  return shown === actual ? [] : [`${at}: ${JSON.stringify(actual)}, the guide shows ${JSON.stringify(shown)}`];
}

/** An answer line as printed (`ETag: "0"   {...}`, `{"a": [...], ..., "b": 1}`): its headers and its JSON. */
function shownAnswer(text: string): { headers: Record<string, string>; json: unknown; elided: boolean } {
  const brace = text.indexOf('{');
  const headers: Record<string, string> = {};
  for (const [, name, value] of text.slice(0, brace).matchAll(/([A-Za-z-]+): (\S+)/g)) headers[name] = value;
  const raw = text.slice(brace);
  const elided = /\.\.\./.test(raw);
  const json = JSON.parse(raw.replace(/\[\.\.\.\]/g, '[]').replace(/,\s*\.\.\.\s*,/g, ','));
  return { headers, json, elided };
}

async function send(request: Curl): Promise<Reply> {
  expect(request.url.startsWith(api.baseUrl)).toBe(true);
  return call(api.baseUrl, request.method, request.url.slice(api.baseUrl.length), {
    headers: request.headers,
    rawBody: request.body,
  });
}

/** The guide's example decision (Quick start, step 3), whose id its later commands use. */
const exampleDecision = JSON.parse(blocks(guide, 'json')[0]) as Record<string, unknown> & { decision_id: string };

describe('README.md', () => {
  it("shows the decision local mode's printed curl command gets", async () => {
    const local = readFileSync(path.join(ROOT, 'bin/local.ts'), 'utf8');
    // In a workspace of its own, with no policy (policy_version 0) whichever test ran before.
    const printed = /-d '(\{[^']*\})'/.exec(local)![1].replace('${DEMO_WORKSPACE}', 'ws_readme');
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', { key: ownKey, body: JSON.parse(printed) });
    expect(reply.status).toBe(200);
    const shown = JSON.parse(blocks(readme, 'json')[0]) as Record<string, string>;
    expect(mismatches(shown, reply.json)).toEqual([]);
    // Sent without received_at: the time of receipt, as the README's example shows it.
    expect(shown.received_at).toBe(shown.created_at);
    expect(reply.json.received_at).toBe(reply.json.created_at);
  });
});

describe('docs/partners.md', () => {
  it('answers every curl command as the guide says, in the guide order', async () => {
    let firstDecision: (Record<string, unknown> & { decision_id: string }) | undefined;
    const commands = guideCommands();
    expect(commands.length).toBeGreaterThanOrEqual(10);
    const problems: string[] = [];
    for (const { line, shown } of commands) {
      // The guide's commands after the first analyze name its decision's id: ours is another.
      const resolved = firstDecision ? line.split(exampleDecision.decision_id).join(firstDecision.decision_id) : line;
      const request = curlRequest(resolved, env);
      const reply = await send(request);
      if (reply.status >= 300) {
        problems.push(`${line}\n  answered ${reply.status} ${reply.text}`);
        continue;
      }
      firstDecision ??= reply.json;
      if (shown) {
        const answer = shownAnswer(shown);
        for (const [name, value] of Object.entries(answer.headers))
          if (reply.headers.get(name) !== value) problems.push(`${line}\n  ${name}: ${reply.headers.get(name)}`);
        problems.push(...mismatches(answer.json, reply.json, '', answer.elided).map((p) => `${line}\n  ${p}`));
      }
      // "Run it twice": every command with an Idempotency-Key answers the same again, marked as a replay.
      if (request.headers['Idempotency-Key']) {
        const again = await send(request);
        if (again.headers.get('idempotent-replayed') !== 'true' || again.text !== reply.text)
          problems.push(`${line}\n  a second run is not a replay (${again.status})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("step 3's decision has the fields, codes and values the step 2 signal gets", async () => {
    // Step 2's command (the guide's first) as written, in a workspace of its own with no policy, as a partner's first
    // call finds it: the walk above puts a policy on ws_demo, and may have run first.
    const [step2] = guideCommands();
    const request = curlRequest(step2.line.split('"ws_demo"').join('"ws_step2"'), { ...env, SAS_API_KEY: ownKey });
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`${api.baseUrl}/signals/analyze`);
    expect(request.body).toContain('"ws_step2"');
    const reply = await send(request);
    expect(reply.status).toBe(200);
    const firstDecision = reply.json as Record<string, unknown>;
    expect(firstDecision).toBeDefined();
    const { reasons: shownReasons, score: _s, confidence: _c, created_at: _t, ...rest } = exampleDecision;
    // Figures are illustrative (the score and confidence); a received_at more than a day old adds WAITING_OVER_24H.
    expect(Object.keys(firstDecision).sort()).toEqual(Object.keys(exampleDecision).sort());
    expect(mismatches(rest, firstDecision, '', true)).toEqual([]);
    expect(firstDecision.reasons).toEqual(expect.arrayContaining(shownReasons as unknown[]));
  });

  it('shows an error as the service answers one', async () => {
    const shown = JSON.parse(blocks(guide, 'json')[1]) as { error: { details: Array<{ field: string }> } };
    const field = shown.error.details[0].field;
    const reply = await call(api.baseUrl, 'POST', '/signals/analyze', {
      key,
      body: { workspace_id: 'ws_demo', source: 'fax', subject: 'Hello' },
    });
    expect(field).toBe('source');
    expect(mismatches(shown, reply.json)).toEqual([]);
  });

  it('runs the TypeScript SDK snippets as written', async () => {
    const code = blocks(guide, 'ts')
      .join('\n')
      .replace(/^import \{([^}]*)\} from '@signal-analysis\/sdk';$/m, 'const {$1} = sdk;')
      // The batch curl above used this key with its own signals: the same key with ours would be a conflict.
      .replace(/idempotencyKey: 'import-/g, "idempotencyKey: 'sdk-import-");
    expect(code).not.toMatch(/^import /m);
    // What the batch snippet leaves to the reader: its signals (one the key may not use) and where ids are stored.
    const preamble = `const signals = [
      { workspace_id: 'ws_demo', source: 'task', subject: 'Renew the TLS certificate' },
      { workspace_id: 'ws_other', source: 'email', subject: 'Checkout is down' },
    ];
    const store = (signal, id) => stored.push([signal.subject, id]);`;
    const js = ts.transpileModule(
      `(async (sdk, process, console, stored, Date, AbortSignal) => {\n${preamble}\n${code}\n})`,
      {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None },
      },
    ).outputText;
    const logged: unknown[][] = [];
    const stored: unknown[][] = [];
    const out = {
      log: (...a: unknown[]) => logged.push(['log', ...a]),
      error: (...a: unknown[]) => logged.push(['error', ...a]),
      warn: (...a: unknown[]) => logged.push(['warn', ...a]),
    };
    // The decisions it lists (critical or high, in ws_demo): step 2's, sent here, whichever test ran before.
    expect((await send(curlRequest(guideCommands()[0].line, env))).status).toBe(200);
    const run = runInThisContext(js) as (...a: unknown[]) => Promise<void>;
    // The snippet's Date and AbortSignal are the test's (jest runs it in a context of its own), as the SDK's are.
    await run(sdk, { env }, out, stored, Date, AbortSignal);
    // The refused analyze, as the comment beside it says; the decisions listed; the batch's good and bad item.
    expect(logged.find(([kind]) => kind === 'error')?.slice(1, 3)).toEqual([403, 'WORKSPACE_NOT_ALLOWED']);
    expect(logged.filter(([kind]) => kind === 'log').length).toBeGreaterThan(0);
    expect(stored).toEqual([['Renew the TLS certificate', expect.stringMatching(/^dec_/)]]);
    expect(logged.find(([kind]) => kind === 'warn')?.slice(1, 3)).toEqual([1, 'WORKSPACE_NOT_ALLOWED']);
  });

  it('runs the Node.js module without the SDK as written', async () => {
    const [client, usage] = blocks(guide, 'js');
    const dir = mkdtempSync(path.join(tmpdir(), 'sas-guide-'));
    try {
      writeFileSync(path.join(dir, 'sas-client.mjs'), client);
      writeFileSync(path.join(dir, 'use.mjs'), usage);
      const { stdout } = await promisify(execFile)(process.execPath, ['use.mjs'], {
        cwd: dir,
        env: { ...process.env, ...env },
        timeout: 60_000,
      });
      const [first, second] = stdout.trim().split('\n');
      expect(first).toMatch(/^dec_\w{26} (critical|high|medium|low) (escalate|respond_now|respond|review|archive) $/);
      expect(second).toMatch(/^[a-z_]+$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
