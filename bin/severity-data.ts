// Every labeled alert rule and bug report of the development data (shared/data), each with its source's severity
// mapped onto one order, for the severity model's leave-one-source-out folds (docs/decision-engine-severity.md,
// "Severity across sources"). The mapping of each vocabulary is written there too; keep the two together.
//   alerts   alert-rules-dev.jsonl and alert-rules-more.jsonl; a fold per source with >= 30 rated rules and two
//            levels (the two GitLab runbook mirrors one source), smaller ones pooled as "other"
//   bugs     bug-reports-dev.jsonl (TIMOB, ALOY, MOD, DAEMON, SeaMonkey) and bug-reports-more.jsonl (jQuery Core,
//            jQuery UI, Mozilla's few pooled); Trac's `undecided` is unlabeled and left out
import type { Signal } from '../lambdas/domain/signal';
import { BUG_LEVEL, jsonl } from './data-splits';

export type SeverityKind = 'alert' | 'bug';

export interface RankedRow {
  kind: SeverityKind;
  /** The fold that holds it out. */
  group: string;
  id: string;
  /** The author's label as written. */
  label: string;
  /** Rank inside its source's vocabulary: 1 the least severe ... `levels` the most. */
  level: number;
  levels: number;
  /** The eval's three alert classes (critical / warning / info) or the tracker's five-step band (bugs 5..1). */
  band: number;
  subject: string;
  body: string;
}

/** Each alert vocabulary, least severe first. Unlisted values are unlabeled. */
const ALERT_ORDER: Record<string, readonly (readonly string[])[]> = {
  default: [
    ['info', 'informational', 'none'],
    ['warning', 'medium'],
    ['critical', 'error'],
  ],
  gitlab: [['s4'], ['s3'], ['s2'], ['s1']],
  'wikimedia/operations-alerts': [['task'], ['warning'], ['critical'], ['page']],
  'giantswarm/prometheus-rules': [['none'], ['ticket'], ['notify'], ['page']],
  'pingcap/tidb-ansible': [['warning'], ['critical'], ['emergency']],
  'tikv/pd': [['warning'], ['critical'], ['emergency']],
  'Altinity/clickhouse-operator': [['info'], ['warning'], ['high'], ['critical']],
  'strimzi/strimzi-kafka-operator': [['info'], ['warning'], ['major']],
  'openshift/cluster-logging-operator': [['warning'], ['error'], ['critical']],
};

const GITLAB = /gitlab/i;
const repo = (source: unknown) => String(source).split('@')[0];
const alertVocabulary = (source: string) => (GITLAB.test(source) ? 'gitlab' : ALERT_ORDER[source] ? source : 'default');

/** Renders Alertmanager templates as alert-rules-dev.jsonl has them: `{{ $labels.x }}` -> `<x>`, `$value` -> N. */
function renderTemplate(text: string): string {
  return text
    .replace(/\{\{[^}]*\$labels\.([A-Za-z_][A-Za-z0-9_]*)[^}]*\}\}/g, '<$1>')
    .replace(/\{\{[^}]*\$value[^}]*\}\}/g, 'N')
    .replace(/\{\{[^}]*\}\}/g, '');
}

/** Three alert classes from a rank: the top critical, the bottom info (with three levels or more), else warning. */
function alertBand(level: number, levels: number): number {
  if (level === levels) return 3;
  if (level === 1 && levels >= 3) return 1;
  return 2;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function alertRow(source: string, id: string, severity: string, name: string, summary: string, description: string) {
  const order = ALERT_ORDER[alertVocabulary(source)];
  const at = order.findIndex((names) => names.includes(severity.toLowerCase()));
  if (at < 0) return null;
  return {
    kind: 'alert' as const,
    group: GITLAB.test(source) ? 'gitlab runbooks' : source,
    id,
    label: severity,
    level: at + 1,
    levels: order.length,
    band: alertBand(at + 1, order.length),
    subject: name || summary,
    body: [name ? summary : '', description].filter((x) => x !== '').join('\n'),
  };
}

/** Sources with fewer than MIN_RULES rated rules, or one level, are pooled as "other". */
const MIN_RULES = 30;

export function loadRankedAlerts(): RankedRow[] {
  const rows: RankedRow[] = [];
  for (const r of jsonl('alert-rules-dev.jsonl')) {
    const row = alertRow(
      repo(r.source),
      String(r.id),
      str(r.severity),
      str(r.name),
      str(r.summary),
      str(r.description),
    );
    if (row) rows.push(row);
  }
  for (const r of jsonl('alert-rules-more.jsonl')) {
    const source = repo(r.source);
    const row = alertRow(
      source,
      `${source}:${str(r.path)}:${str(r.alert)}`,
      str(r.severity),
      str(r.alert),
      renderTemplate(str(r.summary)),
      renderTemplate(str(r.description)),
    );
    if (row) rows.push(row);
  }
  const levels = new Map<string, Set<number>>();
  const counts = new Map<string, number>();
  for (const r of rows) {
    counts.set(r.group, (counts.get(r.group) ?? 0) + 1);
    levels.set(r.group, (levels.get(r.group) ?? new Set()).add(r.level));
  }
  for (const r of rows) if (counts.get(r.group)! < MIN_RULES || levels.get(r.group)!.size < 2) r.group = 'other';
  return rows;
}

/** Trac's order (jQuery Core uses both high/low and major/minor); Mozilla's webcompat and Bugzilla priorities. */
const TRAC_LEVEL: Record<string, number> = { blocker: 5, critical: 4, high: 3, major: 3, low: 2, minor: 2, trivial: 1 };
const WEBCOMPAT_LEVEL: Record<string, number> = {
  'priority-critical': 5,
  'priority-important': 3,
  'priority-normal': 1,
};

function mozillaLevel(value: string): number | undefined {
  if (WEBCOMPAT_LEVEL[value] !== undefined) return WEBCOMPAT_LEVEL[value];
  const p = /priority=P([1-5])/.exec(value);
  return p ? 6 - Number(p[1]) : undefined;
}

export function loadRankedBugs(): RankedRow[] {
  const rows: RankedRow[] = [];
  for (const r of jsonl('bug-reports-dev.jsonl')) {
    const level = BUG_LEVEL[str(r.priority)];
    if (level === undefined) continue;
    rows.push({
      kind: 'bug',
      group: str(r.project),
      id: String(r.id),
      label: str(r.priority),
      level,
      levels: 5,
      band: level,
      subject: str(r.summary),
      body: str(r.description),
    });
  }
  for (const r of jsonl('bug-reports-more.jsonl')) {
    const value = str(r.priority_or_severity);
    const mozilla = str(r.source).startsWith('mozilla/');
    const level = mozilla ? mozillaLevel(value) : TRAC_LEVEL[value];
    if (level === undefined) continue;
    const project = str(r.project);
    rows.push({
      kind: 'bug',
      group: mozilla ? 'Mozilla' : project.replace(/ \(Trac\)$/, ''),
      id: String(r.id),
      label: value,
      level,
      levels: 5,
      band: level,
      subject: str(r.title),
      body: str(r.description),
    });
  }
  return rows;
}

export const ALERT_NOW = '2026-01-15T12:00:00Z';

/** As a partner sends it: an alert as `internal` (subject = name, body = summary and description), a bug as `task`. */
export function rankedSignal(r: RankedRow): Signal {
  const signal: Signal = {
    workspace_id: 'eval',
    source: r.kind === 'alert' ? 'internal' : 'task',
    received_at: ALERT_NOW,
  };
  if (r.subject) signal.subject = r.subject.slice(0, 1000);
  if (r.body) signal.body = r.body.slice(0, 20_000);
  return signal;
}

/** The groups a kind is measured on, largest first. */
export function groupsOf(rows: readonly Pick<RankedRow, 'group'>[]): string[] {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.group, (counts.get(r.group) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([g]) => g);
}
