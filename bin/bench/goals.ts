// The goal shown beside each figure, its PASS/MISS check, and the table that prints them.
import type { Figures } from './common';

interface Goal {
  /** Shown beside the figure. */
  text: string;
  /** PASS/MISS; figures without a check are context. */
  check?: (value: number) => boolean;
}

const atMost = (limit: number) => (v: number) => v <= limit;
const atLeast = (limit: number) => (v: number) => v >= limit;
const exactly = (n: number) => (v: number) => v === n;

/** Goal text (and check) shown beside each figure in the table. */
const GOALS: Record<string, Goal> = {
  scorer_signals_per_second: { text: '>= 50,000 /s on one core', check: atLeast(50_000) },
  scorer_slowest_round_per_second: { text: 'context: the slowest of the 5 rounds (the figure above is the median)' },
  scorer_avg_body_chars: { text: '~2,000' },
  scorer_ms_per_signal: { text: 'context: one ~2 KB e-mail, median round' },
  scorer_ns_per_char: { text: 'context: the scorer per body character' },
  machine_char_loop_ns_per_char: { text: 'reference: a bare charCodeAt loop on this machine' },
  scorer_vs_char_loop_ratio: { text: 'context: scorer ns/char / bare loop ns/char (comparable across machines)' },
  scorer_share_of_warm_request: {
    text: '< 0.02 (scoring a 2 KB e-mail / warm in-process request, median)',
    check: (v) => v < 0.02,
  },

  ddb_reads_cold: { text: 'key not cached: key + partner read, then grant + prefix set (one BatchGet)' },
  ddb_writes_cold: { text: 'write items' },
  ddb_reads_warm: { text: '0 (authorizer cache hit)', check: exactly(0) },
  ddb_writes_warm: { text: 'exactly 1 write item', check: exactly(1) },
  ddb_write_calls_warm: { text: '1 PutItem' },
  ddb_reads_warm_idempotent: { text: '0', check: exactly(0) },
  ddb_writes_warm_idempotent: { text: 'exactly 2 write items (record + decision)', check: exactly(2) },
  ddb_write_calls_warm_idempotent: { text: '1 TransactWriteItems call' },
  ddb_reads_cold_idempotent: { text: 'key + partner read, then grant + prefix set' },
  ddb_writes_cold_idempotent: { text: 'write items' },
  ddb_reads_replay: { text: 'idempotent replay: old record comes back with the cancelled write' },
  ddb_write_calls_replay: { text: 'the cancelled TransactWriteItems' },

  batch100_write_calls: {
    text: '<= 4 write requests for 100 signals (BatchWriteItem of 25; retries only for unprocessed items)',
    check: atMost(4),
  },
  batch100_write_items: { text: '100 decisions' },
  batch100_ddb_calls: { text: 'context: every DynamoDB call of the batch (warm key)' },
  batch100_write_calls_idempotent: {
    text: '<= 5: one more conditional PutItem for the Idempotency-Key',
    check: atMost(5),
  },
  batch100_write_items_idempotent: { text: 'context: the record (ids only) + 100 decisions' },
  batch100_replay_read_calls: { text: 'context: the record back with the refused claim, then one BatchGetItem of 100' },
  batch100_replay_write_calls: { text: 'context: the refused conditional PutItem' },
  single_analyze_cpu_us_per_signal: { text: 'context: CPU of this process per signal, POST analyze (best round)' },
  batch_cpu_us_per_signal: { text: 'CPU per signal in batches of 100 (best round)' },
  batch_vs_single_cpu_per_signal_ratio: { text: '<= 1.0 (no worse than single analyze)', check: atMost(1) },
  list_first_page_query_calls: { text: 'exactly 1 Query (decision_list), no Scan', check: exactly(1) },
  list_first_page_ddb_calls: { text: 'context: every DynamoDB call of the page' },
  list_next_page_query_calls: { text: 'exactly 1 Query', check: exactly(1) },
  list_next_page_ddb_calls: { text: 'context: + 1 GetItem checking the cursor is of this workspace' },

  inprocess_p50_ms: { text: 'authorizer + analyze handlers, warm key, context' },
  inprocess_p99_ms: { text: 'context' },
  putitem_p50_ms: { text: 'bare DocumentClient PutItem, same item, same DynamoDB Local' },
  putitem_p99_ms: { text: 'context' },
  inprocess_vs_putitem_p50_ratio: { text: '<= 1.3x', check: atMost(1.3) },
  inprocess_vs_putitem_p99_ratio: { text: '<= 1.3x', check: atMost(1.3) },
  inprocess_iterations: { text: 'sequential, each path, interleaved, after warm-up' },

  access_cli_grant_10000_seconds: {
    text: '< 60 s: admin CLI process, key grant --workspaces-file of 10,000',
    check: (v) => v < 60,
  },
  access_grants_listed_many_key: { text: '10,000: key list shows them all', check: exactly(10_000) },
  access_warm_p50_ms_1_grant: { text: 'context: warm analyze in-process, key with 1 grant' },
  access_warm_p50_ms_10000_grants: { text: 'context: the same, key with 10,000 grants, interleaved' },
  access_warm_p99_ms_1_grant: { text: 'context' },
  access_warm_p99_ms_10000_grants: { text: 'context' },
  access_warm_p50_ratio_10000_vs_1: { text: '<= 1.1: nothing per request grows with the grants', check: atMost(1.1) },
  access_warm_reads: { text: '0: warm keys and pairs are cached', check: exactly(0) },
  access_cold_read_items_first_request: {
    text: '<= 4: key + partner (authorizer), grant + prefix set (one BatchGet)',
    check: atMost(4),
  },
  access_cold_read_items_new_workspace: { text: '<= 1: one read per new (key, workspace) pair', check: atMost(1) },
  access_cold_workspace_state_items_new_workspace: {
    text: "context: the workspace's policy and model item, read once per container per TTL (workspace section)",
  },
  access_rate_writes_per_request_100_per_s: {
    text: '<= 0.1 counter writes/request, 3 instances at 80% of 100/s',
    check: atMost(0.1),
  },
  access_rate_writes_per_request_1000_per_m: {
    text: '<= 0.1 counter writes/request, 3 instances at 80% of 1,000/m',
    check: atMost(0.1),
  },

  http_rps: { text: 'local mode (npm start), POST analyze, autocannon on loopback' },
  http_p99_ms: { text: 'context' },
  bare_http_rps: { text: 'bare node:http server doing the same single PutItem' },
  bare_http_p99_ms: { text: 'context' },
  http_vs_bare_rps_ratio: { text: '>= 0.7', check: atLeast(0.7) },
  http_vs_bare_p99_ratio: { text: 'context (lower is better)' },
  http_connections: { text: 'same for both' },
  http_seconds_per_round: { text: 'rounds alternate bare/local' },
  http_rounds: { text: 'per server' },
  http_non_2xx: { text: '0', check: exactly(0) },

  bundle_docclient_only_kib: { text: 'reference: esbuild bundle holding only the DocumentClient' },
  bundle_docclient_only_gzip_kib: { text: 'reference' },
  init_docclient_only_ms: { text: 'reference: median of fresh node processes (client constructed at load)' },
  init_docclient_only_lazy_client_ms: {
    text: 'context: same bundle, client constructed on first use, as our handlers do',
  },
  bundle_docclient_only_trimmed_kib: {
    text: "context: the reference with our bundles' aliases (no default credential chain)",
  },
  bundle_docclient_only_trimmed_gzip_kib: { text: 'context: the same, gzip' },
  init_docclient_only_trimmed_ms: { text: 'context: the same, module init' },
  scorer_init_ms: { text: 'context: the scorer alone (its lexicon index, tables), fresh process' },
  scorer_first_call_ms: {
    text: 'context: first scoreSignal of a 2 KB e-mail after load (lazy trie branches, cold code)',
  },
  bundle_analyze_without_scorer_gzip_kib: {
    text: 'context: analyze with the decision engine (scorer, lexicon, spam model) stubbed out',
  },
  bundle_analyze_without_scorer_ratio: { text: 'context: the same, worst of minified and gzip, against the reference' },
  bundle_size_overhead_ratio_max: {
    text: '<= 1.5 (worst Lambda / DocumentClient-only, minified and gzip; issue 11)',
    check: atMost(1.5),
  },
  init_time_overhead_ratio_max: { text: '<= 1.25 (worst Lambda / DocumentClient-only)', check: atMost(1.25) },
  bundle_size_ratio_max_vs_trimmed: { text: 'context: worst Lambda / trimmed reference: the weight of our own code' },
  init_time_ratio_max_vs_trimmed: { text: 'context: worst Lambda / trimmed reference, module init' },
  init_runs_per_bundle: { text: 'fresh node processes per bundle, interleaved' },

  cost_analyze_floor_ratio: { text: '<= 1.5 (analyze / its floor)', check: atMost(1.5) },
  cost_batch100_floor_ratio: { text: '<= 1.2 (per decision of a batch of 100 / its floor)', check: atMost(1.2) },
  decision_item_one_write_unit_share: {
    text: '>= 0.95 of real e-mails stored in one write unit (1 KB)',
    check: atLeast(0.95),
  },
  decision_item_bytes_p95_without_sketch: {
    text: "context: the same item without learning's sketch (197 bytes of hashes kept for feedback)",
  },
  decision_item_one_write_unit_share_without_sketch: {
    text: 'context: the share in one write unit without the sketch: the sketch is the feature that needs more',
  },
  cost_sketch_usd_per_million_decisions: {
    text: "context: what the sketch's extra write units cost (the table; the listing index does not copy it)",
  },
  decision_list_index_entry_bytes_median: {
    text: 'context: what the listing index copies of a decision item (keys, decision, expiry), median',
  },
  decision_item_bytes_median: { text: 'stored decision item, DynamoDB item size, real e-mails' },
  decision_item_bytes_p95: { text: 'context' },
  decision_item_bytes_max: { text: 'context' },
  decision_items_measured: { text: 'SpamAssassin dev + Enron e-mails, evenly spread' },
  cost_storage_usd_per_million_decisions_retained: {
    text: 'context: DynamoDB storage for the retention period (not in the ratios)',
  },
  cost_managed_nlp_usd_per_million_2kb: { text: 'context: Amazon Comprehend, 3 standard requests for one 2 KB e-mail' },
  cost_edge_usd_per_million_requests: {
    text: 'context: edge protection on, CloudFront HTTPS requests + WAF inspections',
  },
  cost_edge_fixed_usd_per_month: {
    text: 'context: edge protection on, the web ACL and its 3 rules, whatever the traffic',
  },
  cost_edge_usd_per_million_at_10m_a_month: {
    text: 'context: edge protection per million requests at 10 million a month',
  },
  cost_analyze_with_edge_usd_per_million_at_10m_a_month: {
    text: 'context: analyze with edge protection on, at 10 million a month',
  },

  ws_learned_categories: { text: 'banking77 categories the bench workspace learned (with a policy too)' },
  ws_taught_feedback: { text: 'feedback given through the use case' },
  ws_reads_warm: { text: '0 (policy and model cached per container)', check: exactly(0) },
  ws_writes_warm: { text: 'exactly 1 write', check: exactly(1) },
  ws_feedback_writes_mean: { text: "context: decision + head + journal entry, and a fold's writes once per window" },
  ws_feedback_writes_max: {
    text: '<= 3 whatever the workspace learned (decision, head, journal entry), outside a fold',
    check: atMost(3),
  },
  ws_feedback_fold_writes_max: {
    text: "context: the feedback that folds a window also writes the window's label items, its plan, the head",
  },
  ws_feedback_write_units: {
    text: 'context: write units per feedback while teaching, folds included (as DynamoDB Local reports them)',
  },
  ws_feedback_folds: { text: 'context: folds while teaching (one per window of journal entries)' },
  ws_feedback_fold_window: { text: 'context: journal entries a fold sums into the label items' },
  ws_feedback_fold_write_units_amortized: {
    text: "context: a fold's write units (the whole label items it updates) spread over every feedback",
  },
  ws_feedback_fold_write_units_bound: {
    text: 'context: the same if every window touched every label once (feedback in any order): all label items / window',
  },
  ws_feedback_fold_read_units_amortized: { text: "context: a fold's reads (the window's entries) per feedback" },
  cost_feedback_learned_floor_ratio: {
    text: '<= 2 (feedback on the taught workspace, folds amortized in / its floor, USD; issue 23)',
    check: atMost(2),
  },
  cost_feedback_learned_shuffled_floor_ratio: {
    text: '<= 2 (the same with the fold share of the corrections taught in a seeded shuffled order: feedback in any order)',
    check: atMost(2),
  },
  cost_feedback_learned_shuffled_usd_per_million: { text: 'context: the same, shuffled' },
  ws_feedback_folds_shuffled: { text: 'context: folds while teaching the same corrections shuffled' },
  ws_feedback_fold_write_units_amortized_shuffled: { text: "context: a fold's write units per feedback, shuffled" },
  ws_feedback_fold_read_units_amortized_shuffled: { text: "context: a fold's reads per feedback, shuffled" },
  cost_feedback_learned_usd_per_million: { text: 'context: feedback on the taught workspace, folds amortized in' },
  cost_feedback_learned_write_units: { text: 'context: its write units per call, folds amortized in' },
  ws_model_load_requests: {
    text: 'context: BatchGets: policy, model and head; labels (1 per 100); the head again; journal (1 per 100)',
  },
  ws_model_load_kib: { text: 'context: approximate bytes read for the model' },
  ws_model_load_ms: { text: 'context: once per workspace per container per TTL' },
  ws_model_counts: { text: 'context: learned counts in memory' },
  ws_model_index_postings: { text: 'context: the index (bucket -> labels), one posting per count' },
  ws_cache_weight: {
    text: 'context: counts + postings the cache weighs (LRU bound: 2,000,000 over <= 1,000 workspaces)',
  },
  ws_inprocess_p50_ms: { text: 'context: analyze with policy + learned model' },
  ws_putitem_p50_ms: { text: 'context' },
  ws_inprocess_vs_putitem_p50_ratio: { text: '<= 1.3x', check: atMost(1.3) },
  ws_inprocess_vs_putitem_p99_ratio: { text: '<= 1.3x', check: atMost(1.3) },
  ws_fresh_inprocess_p50_ms: { text: 'context: a fresh workspace (no policy, nothing learned), same loop' },
  ws_inprocess_p99_ms: { text: 'context: analyze with policy + learned model, p99' },
  ws_fresh_inprocess_p99_ms: { text: 'context: a fresh workspace, p99, same loop' },
  ws_learned_vs_fresh_p99_ratio: {
    text: "<= 1.5 (a warm learned analyze's p99 / a fresh workspace's, same loop; issue 23)",
    check: atMost(1.5),
  },
  ws_feedback_vs_floor: {
    text: "context: write units / the floor's 1 (decision, head and journal entry; the listing index is not written)",
  },
  ws_import_vs_feedback_floor: {
    text: "<= 2 (an imported example, file order / a feedback's floor; issue 23)",
    check: atMost(2),
  },
  ws_fresh_check_read_units: {
    text: '<= 1 read unit per container per TTL when nothing changed (issue 23)',
    check: atMost(1),
  },
  ws_import_write_units_per_example_shuffled: {
    text: 'context: the same examples imported in a seeded shuffled order (a request touches many labels)',
  },
  ws_import_read_units_per_example: {
    text: "context: read units per imported example (the folds' reads of the entries)",
  },
  ws_import_read_units_per_example_shuffled: { text: 'context: the same, shuffled' },
  ws_import_folds: { text: 'context: folds while importing (every 1,024 imported examples, and the last forced)' },
  ws_import_folds_shuffled: { text: 'context: the same, shuffled' },
  ws_import_shuffled_vs_feedback_floor: {
    text: "<= 2 (a shuffled file's imported example / a feedback's floor; issue 23)",
    check: atMost(2),
  },
  cost_analyze_learned_floor_ratio: {
    text: '<= 1.5 (analyze with policy + learned model, freshness reads included / its floor; issue 23)',
    check: atMost(1.5),
  },
  cost_analyze_learned_fresh_read_units: {
    text: 'context: freshness-check read units one analyze carries (hot workspace: 100 containers, 100 req/s)',
  },
  cost_analyze_learned_read_units: { text: 'context: read units a warm learned analyze made itself' },
  worst_case_analyze_cpu_ms: {
    text: '< 50 ms CPU: one in-process analyze, maximal policy, 256 KiB request (median)',
    check: (v) => v < 50,
  },
  worst_case_analyze_cpu_ms_max: { text: 'context: the slowest of those requests' },
  worst_case_engine_cpu_ms: { text: 'context: the global engine alone (scoreSignal) on the same signal' },
  worst_case_keywords_cpu_ms: { text: 'context: the 200 keywords, one automaton, on the same text' },
  worst_case_keywords_regex_cpu_ms: {
    text: 'context: the same with one regular expression per keyword (before issue 21)',
  },
  worst_case_keywords_matched: { text: 'context: keywords found (the same both ways)' },
  worst_case_policy_reasons: { text: 'context: POLICY_* reasons on the decision' },
  worst_case_request_bytes: { text: 'context: the request body (limit 262,144)' },
  worst_case_policy_bytes: { text: 'context: the policy as JSON (PUT limit 65,536)' },
  ws_fresh_vs_putitem_p50_ratio: { text: 'context: the same for a fresh workspace, same moments' },

  goals_missed: { text: 'figures above that miss their goal', check: exactly(0) },
};

const COST_FIGURES: Record<string, string> = {
  usd_per_million: 'USD per million calls (per decision for a batch), us-east-1 arm64 on-demand, logs included',
  floor_usd_per_million: 'the same call with only its unavoidable parts (1 ms per Lambda, minimum units, access log)',
  floor_ratio: 'context (goals for analyze and batch100 above)',
  write_units: 'DynamoDB write units per call, as DynamoDB Local reported them (table and indexes)',
  read_units: 'DynamoDB read units per call',
  billed_ms_authorizer: 'Lambda billed ms (CPU scaled to 512 MB share + measured wait), median',
  billed_ms_route: 'the same, route Lambda',
  log_bytes: 'log bytes per call: Lambda logs, EMF metrics and the access log line',
  log_events: 'log events per call (CloudWatch adds 26 bytes to each)',
  calls_measured: 'calls that answered 200',
  calls_failed: 'calls that did not answer 200',
};

/** Per-Lambda bundle rows get their goal text from their suffix. */
export function goalFor(key: string): Goal | undefined {
  if (GOALS[key]) return GOALS[key];
  if (/^bundle_\w+_gzip_kib$/.test(key)) return { text: 'cdk synth asset index.js, gzip -9' };
  if (/^bundle_\w+_kib$/.test(key)) return { text: 'cdk synth asset index.js, minified' };
  if (/^init_\w+_ms$/.test(key)) return { text: 'module init, median' };
  if (/^weight_\w+_kib$/.test(key))
    return { text: 'context: what this part weighs in the analyze bundle (minified bytes in output)' };
  if (/^bundle_\w+_ratio$/.test(key)) return { text: '<= 1.5', check: atMost(1.5) };
  if (/^init_\w+_ratio$/.test(key)) return { text: '<= 1.25', check: atMost(1.25) };
  const cost =
    /^cost_(\w+?)_(usd_per_million|floor_usd_per_million|floor_ratio|write_units|read_units|billed_ms_authorizer|billed_ms_route|log_bytes|log_events|calls_measured|calls_failed)$/.exec(
      key,
    );
  if (cost) return { text: COST_FIGURES[cost[2]] ?? '', ...(cost[2] === 'calls_failed' ? { check: exactly(0) } : {}) };
  return undefined;
}

/** The figures with a goal, as the markdown table docs/performance.md shows under "Latest figures". */
export function markdownTable(results: Figures, heading: string): string {
  const rows = Object.entries(results).flatMap(([k, v]) => {
    const goal = goalFor(k);
    // The machine's own speed, so a reader can tell a loaded machine from a slow build.
    if (k === 'machine_char_loop_ns_per_char')
      return [`| \`${k}\` | ${goal?.text ?? ''} | ${v.toLocaleString('en-US')} | |`];
    if (!goal?.check || k === 'goals_missed') return [];
    return [
      `| \`${k}\` | ${goal.text.replaceAll('|', '\\|')} | **${v.toLocaleString('en-US')}** | ${goal.check(v) ? 'PASS' : 'MISS'} |`,
    ];
  });
  const missed = `Goals missed: ${results.goals_missed ?? 0}.`;
  return [heading, '', '| Figure | Goal | Now | |', '|---|---|---|---|', ...rows, '', missed].join('\n');
}

export function printTable(results: Figures): void {
  const rows = Object.entries(results).map(([k, v]) => {
    const goal = goalFor(k);
    const status = goal?.check ? (goal.check(v) ? 'PASS' : 'MISS') : '';
    return [k, v.toLocaleString('en-US'), status, goal?.text ?? ''];
  });
  const heads = ['figure', 'value', 'status', 'goal'];
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), heads[i].length));
  const line = (r: string[]) =>
    console.log(`${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}`.trimEnd());
  line(heads);
  line(widths.map((w) => '-'.repeat(w)));
  rows.forEach(line);
}
