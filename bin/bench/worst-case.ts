// Section "worst-case": the CPU one analyze can cost: a maximal policy (200 keywords of about 100 characters
// made of short words that occur in the body, 1,000 entries in each sender list) and a body as large as a request may
// be (256 KiB). Measured with process.cpuUsage around one in-process request (authorizer + route, this process only:
// DynamoDB Local is another process), median and worst of several, after warm-up. Beside it, the parts: the global
// engine alone on the same signal, the policy's keyword automaton alone, and what one regular expression per keyword
// would cost on the same text, for comparison.
import { keywordMatcher } from '../../lambdas/domain/keyword-matcher';
import { keywordText } from '../../lambdas/domain/keyword-text';
import { scoreSignal } from '../../lambdas/domain/engine';
import { keywordPattern, type WorkspacePolicy } from '../../lambdas/domain/policy';
import { signalText } from '../../lambdas/domain/learning/sketch';
import type { Signal } from '../../lambdas/domain/signal';
import { mulberry32 } from '../seeded-random';
import { type Figures, cpuMs, median, progress } from './common';
import { analyzeEvents, assertOk, expectOk, inProcess } from './requests';
import type { World } from './world';

const REQUEST_LIMIT = 256 * 1024;
const BODY_MAX_CHARS = 200_000;
const WIDE_WORDS = ['ça', 'où', 'ün', 'öl', 'ää', 'ßé', 'çà', 'éè'];
const SHORT_WORDS = ['to', 'in', 'on', 'at', 'of', 'we', 'us', 'go', 'so', 'up', 'an', 'it'];
const THREE_LETTERS = ['the', 'and', 'for', 'you', 'are', 'was', 'not', 'but', 'now', 'all', 'one', 'our', 'get'];

/** 200 phrases of 100 characters: a run of 30 "to" (what made backtracking expensive), then three other short words. */
function maximalKeywords(): string[] {
  const phrases: string[] = [];
  for (let k = 0; phrases.length < 200; k++) {
    const tail = [SHORT_WORDS[k % 12], THREE_LETTERS[Math.floor(k / 12) % 13], THREE_LETTERS[(k * 7) % 13]];
    phrases.push([...Array<string>(30).fill('to'), ...tail].join(' '));
  }
  return phrases;
}

function maximalPolicy(): WorkspacePolicy {
  const senders = (kind: string) =>
    Array.from({ length: 1_000 }, (_, i) => (i % 2 ? `@${kind}${i}.io` : `${kind[0]}${i}@x.io`));
  return {
    vip_senders: senders('v'),
    trusted_senders: senders('t'),
    blocked_senders: senders('b'),
    keywords: maximalKeywords().map((phrase, i) => ({
      phrase,
      weight: (i % 21) - 10,
      ...(i % 10 === 0 ? { category: `own_${i}` } : {}),
    })),
  };
}

/**
 * The largest request the API takes (256 KiB): a body of 200,000 characters (its limit) whose words are mostly runs of
 * "to" among the other short words, and short words of two-byte letters (so that the request reaches 256 KiB), with
 * five of the phrases whole.
 */
function maximalSignal(workspace: string): string {
  const random = mulberry32(21);
  const keywords = maximalKeywords();
  const vocabulary = [...SHORT_WORDS, ...THREE_LETTERS];
  const envelope = {
    workspace_id: workspace,
    source: 'email',
    subject: 'to go up it so',
    sender: 'ann@deep.sub.v999.io',
    body: '',
  };
  const roomBytes = REQUEST_LIMIT - Buffer.byteLength(JSON.stringify(envelope));
  const parts: string[] = [];
  let chars = 0;
  let bytes = 0;
  for (;;) {
    const r = random();
    const part =
      r < 0.6
        ? WIDE_WORDS[Math.floor(random() * WIDE_WORDS.length)]
        : r < 0.93
          ? 'to'
          : vocabulary[Math.floor(random() * vocabulary.length)];
    if (chars + part.length + 1 > BODY_MAX_CHARS - 600 || bytes + Buffer.byteLength(part) + 1 > roomBytes - 600) break;
    parts.push(part);
    chars += part.length + 1;
    bytes += Buffer.byteLength(part) + 1;
  }
  for (let i = 1; i <= 5; i++) parts[Math.floor((parts.length * i) / 6)] = keywords[i * 37];
  return JSON.stringify({ ...envelope, body: parts.join(' ') });
}

/**
 * Bodies a review found slow in the engine's regular expressions (each input its own shape: a word start at every
 * character before a web address; one long run without a case change before a CamelCase word; a free share's words
 * before a long run of spaces; one CamelCase word of capitals), for each source that
 * reads them, at the engine's reading limits.
 */
function hostileSignals(): Signal[] {
  // Within the first 20,000 characters, which the spam features read.
  const webRun = `${'a-'.repeat(9_995)} www.x`;
  const camelRun = `${'a'.repeat(3_990)} aB`;
  // One CamelCase word of capitals (each an acronym's start) to the engine's reading limit.
  const capitalsRun = `a${'A'.repeat(3_999)}`;
  // A free share's words before the engine's whole body of spaces (the words-first free share, read everywhere).
  const freeRun = `disk free${' '.repeat(199_980)}x %`;
  const at = '2026-11-21T09:30:00Z';
  return [
    { workspace_id: 'ws', source: 'email', subject: 'Hello', body: webRun, received_at: at },
    { workspace_id: 'ws', source: 'support_message', body: webRun, received_at: at },
    { workspace_id: 'ws', source: 'internal', body: camelRun, received_at: at },
    { workspace_id: 'ws', source: 'task', body: camelRun, received_at: at },
    { workspace_id: 'ws', source: 'email', subject: '[FIRING:1] DiskFull', body: camelRun, received_at: at },
    { workspace_id: 'ws', source: 'internal', body: freeRun, received_at: at },
    { workspace_id: 'ws', source: 'task', body: capitalsRun, received_at: at },
  ];
}

export async function benchWorstCase(world: World, quick: boolean): Promise<Figures> {
  const policy = maximalPolicy();
  await world.putPolicy(world.workspace, policy);
  const body = maximalSignal(world.workspace);
  const signal = JSON.parse(body) as Signal;
  world.counting(false);
  const runs = quick ? 7 : 21;
  /** CPU ms of each of `runs` calls of `run` (its argument made untimed by `prepare`), ascending. */
  const cpuOfRuns = async <T>(run: (input: T) => unknown, prepare: () => T = () => undefined as T) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const input = prepare();
      times.push(await cpuMs(() => run(input)));
    }
    return times.sort((a, b) => a - b);
  };

  // Warm-up (JIT, the policy compiled into the workspace cache), then one request at a time.
  for (let i = 0; i < 3; i++) expectOk(await world.analyze(world.key, body));
  const request = await cpuOfRuns(
    async (events) => assertOk(await inProcess(world.service, events)),
    () => analyzeEvents(world.key, body),
  );
  const decision = expectOk(await world.analyze(world.key, body));
  const engine = await cpuOfRuns(() => scoreSignal(signal, new Date()));
  // The slowest hostile body, each the median of its runs.
  let hostile = 0;
  for (const h of hostileSignals())
    hostile = Math.max(hostile, median(await cpuOfRuns(() => scoreSignal(h, new Date()))));
  const matcher = keywordMatcher(policy.keywords!);
  const text = signalText(signal);
  let matched = 0;
  const automaton = await cpuOfRuns(() => (matched = matcher.match(text).length));
  // The earlier matching, once (it takes seconds): one regular expression per keyword.
  progress('  worst-case: one regular expression per keyword, once, for comparison ...');
  const patterns = policy.keywords!.map((k) => keywordPattern(k.phrase));
  let regexMatched = 0;
  const prepared = keywordText(text); // as the automaton reads it
  const regex = await cpuMs(() => (regexMatched = patterns.filter((p) => p.test(prepared)).length));
  if (regexMatched !== matched)
    throw new Error(`the automaton found ${matched} keywords, the regular expressions ${regexMatched}`);

  return {
    worst_case_analyze_cpu_ms: median(request),
    worst_case_analyze_cpu_ms_max: request[request.length - 1],
    worst_case_engine_cpu_ms: median(engine),
    worst_case_engine_hostile_cpu_ms: hostile,
    worst_case_keywords_cpu_ms: median(automaton),
    worst_case_keywords_regex_cpu_ms: regex,
    worst_case_keywords_matched: matched,
    worst_case_policy_reasons: decision.reasons.filter((r) => r.code.startsWith('POLICY_')).length,
    worst_case_request_bytes: Buffer.byteLength(body),
    worst_case_policy_bytes: Buffer.byteLength(JSON.stringify(policy)),
  };
}
