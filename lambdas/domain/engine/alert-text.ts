// How alert rule text is read: template placeholders, monitoring senders, free shares ("< 10% left") and CamelCase
// rule names (docs/decision-engine-severity.md, "Alerts and tickets").
// Prometheus/Go template placeholders ("{{ $labels.pod }}", "{{ $value | humanize }}", "{{ .Labels.job }}").
export const TEMPLATE_HINT = /\{\{-?\s*[$.]/;
const TEMPLATE = /\{\{[^{}]{0,200}\}\}/g;
const TEMPLATE_LABEL = /labels\.([A-Za-z_][A-Za-z0-9_]*)/i;
export const FIRING_HINT = /\[(?:FIRING|ALERT|ALARM)\b/i;
export const MONITORING_SENDER =
  /^(?:alertmanager|prometheus|grafana|nagios|icinga|zabbix|datadog|pagerduty|opsgenie|monitoring|monitor|alerts?|alerting|cloudwatch|sentry|uptime-?robot|pingdom|statuscake)(?:[-+._0-9].*)?$/;
export function withoutTemplates(text: string, limit: number): string {
  const head = text.length > limit ? text.slice(0, limit) : text;
  return head.replace(TEMPLATE, (t) => {
    // `<name>`: the tokens are the label's name alone ('<' and '>' only separate), and the severity model can tell a
    // placeholder from a word (rendered rules read the same: docs/decision-engine-severity.md, "Severity across
    // sources").
    const label = TEMPLATE_LABEL.exec(t)?.[1];
    return label === undefined ? '' : `<${label}>`;
  });
}
// "< 10% left", "5% memory available", or with the words first, "disk free: 4%", "free memory 12%": a free share, the
// other side of a usage metric (same thresholds: 95% / 85% used). No two runs of spaces side by side that could split
// one run between them: "disk free" and a long run of spaces made that quadratic.
const FREE_SHARE =
  /(\d{1,3}(?:[.,]\d{1,2})?)\s*%\s*(?:of\s+)?(?:(?:disk|free|disk space|space|memory|inodes|capacity)\s+)?(?:left|free|available|remaining)\b|\b(?:free\s+(?:disk\s+)?(?:space|memory|inodes)|(?:disk(?:\s+space)?|space|memory|inodes)\s+(?:free|left|available|remaining))\s*(?:(?:[:=]|is|at)\s*)?(\d{1,3}(?:[.,]\d{1,2})?)\s*%/gi;
export function freeShare(text: string, known: { level: number } | null): { level: 1 | 2; text: string } | null {
  if (text.indexOf('%') < 0) return null;
  let best: { level: 1 | 2; text: string } | null = null;
  FREE_SHARE.lastIndex = 0;
  for (let m = FREE_SHARE.exec(text), k = 0; m !== null && k < 20; m = FREE_SHARE.exec(text), k++) {
    const value = Number((m[1] ?? m[2]).replace(',', '.'));
    const level = value <= 5 ? 2 : value <= 15 ? 1 : 0;
    if (level > 0 && level > (best?.level ?? known?.level ?? 0))
      best = { level: level === 2 ? 2 : 1, text: `only ${value}% free` };
  }
  return best;
}
// Tried only where a run of letters and digits starts: from every start inside a long run without a case change the
// search read to its end again (16 ms for 4,000 characters). The matches are the same. The split before a capital
// that starts a word after an acronym looks ahead one capital and one lower-case letter: `([A-Z]+)([A-Z][a-z])` read
// a run of capitals to its end from each of them (14 ms for one word of 4,000).
const CAMEL_WORD = /(?<![A-Za-z0-9])[A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*/g;
const CAMEL_HINT = /[a-z0-9][A-Z]/;
export const CAMEL_BODY_CHARS = 4_000;
export const EXTRA_SCAN_CHARS = 2_000;
/** Appends the CamelCase identifiers of `text` (its first `limit` characters), split into words: "KubeAPIDown" -> "Kube API Down". */
export function camelWords(text: string, limit: number, out: string[]): void {
  const head = text.length > limit ? text.slice(0, limit) : text;
  if (!CAMEL_HINT.test(head)) return;
  const words: string[] = [];
  for (const m of head.matchAll(CAMEL_WORD))
    words.push(m[0].replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 '));
  if (words.length > 0) out.push(words.join('.\n'));
}
