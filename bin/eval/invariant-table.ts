// What each archive guard (lambdas/domain/engine/archive-guards.ts) changes on the development sources: every source
// scored with all guards on, then once per guard with that guard off; the spam and the ordinary messages whose
// decision changes (archived or not, for invariant 5 escalated or not) are counted. DEV splits only (bin/data-splits.ts),
// plus BANKING77 (test-only for the scorer: a measurement, nothing here is tuned on it) and an eighth of the training
// tracker's bugs and of the alert rules as their own channels. `npm run eval -- --invariants` prints it.
import '../lexicon-index-check';
import type { Assessment } from '../../lambdas/domain/decision';
import { scoreSignal } from '../../lambdas/domain/engine';
import { ARCHIVE_GUARDS, withoutGuard } from '../../lambdas/domain/engine/archive-guards';
import type { Signal } from '../../lambdas/domain/signal';
import {
  fnv1a,
  loadAlerts,
  loadBanking77,
  loadBugs,
  loadEnron,
  loadSms,
  loadSpamAssassin,
  loadThaiSms,
} from '../data-splits';
import { enronDev } from '../spam-examples';
import { FIXED_NOW, mailSignal } from './labeled';

interface DevCase {
  source: string;
  spam: boolean;
  signal: Signal;
}

const AT = FIXED_NOW.toISOString();
const text = (source: Signal['source'], body: string, subject?: string): Signal => ({
  workspace_id: 'eval',
  source,
  received_at: AT,
  body,
  ...(subject ? { subject } : {}),
});

function devCases(): DevCase[] {
  const out: DevCase[] = [];
  for (const r of loadSpamAssassin().filter((x) => x.split === 'dev')) {
    out.push({ source: `SpamAssassin ${r.label}`, spam: r.label === 'spam', signal: mailSignal(r, AT) });
    if (r.label === 'spam')
      out.push({
        source: 'SpamAssassin spam as web form',
        spam: true,
        signal: text('support_message', r.body, r.subject ?? undefined),
      });
  }
  for (const r of loadEnron().filter((x) => x.split === 'train' && enronDev(x.id)))
    out.push({ source: 'Enron (dev tenth)', spam: false, signal: mailSignal(r, AT) });
  for (const r of loadSms().filter((x) => x.split === 'dev'))
    out.push({ source: 'SMS', spam: r.spam, signal: text('support_message', r.text) });
  for (const r of loadThaiSms().filter((x) => x.split === 'dev'))
    out.push({ source: 'Thai SMS', spam: r.spam, signal: text('support_message', r.text) });
  for (const r of loadBanking77())
    out.push({ source: 'BANKING77', spam: false, signal: text('support_message', r.text) });
  for (const r of loadBugs().filter((x) => x.split === 'train' && fnv1a(x.id) % 8 === 1))
    out.push({ source: 'bugs (task)', spam: false, signal: text('task', r.description, r.summary) });
  for (const r of loadAlerts())
    out.push({
      source: 'alerts (internal)',
      spam: false,
      signal: text('internal', r.description, r.name || r.summary),
    });
  return out;
}

const archived = (a: Assessment) => a.recommended_action === 'archive';
const escalated = (a: Assessment) => a.recommended_action === 'escalate' || a.priority === 'critical';

export function invariantTable(): string[] {
  const cases = devCases();
  const base = cases.map((c) => scoreSignal(c.signal, FIXED_NOW));
  const sources = [...new Set(cases.map((c) => c.source))];
  const lines = ['| Guard switched off | ' + sources.join(' | ') + ' |', '|---|' + sources.map(() => '---|').join('')];
  const totals = sources.map((s) => {
    const own = cases.filter((c) => c.source === s);
    return `${own.filter((c) => c.spam).length} spam / ${own.filter((c) => !c.spam).length} ordinary`;
  });
  lines.push(`| (messages) | ${totals.join(' | ')} |`);
  lines.push(
    `| (archived, all guards on) | ${sources
      .map((s) => {
        const idx = cases.map((c, i) => (c.source === s ? i : -1)).filter((i) => i >= 0);
        const spam = idx.filter((i) => cases[i].spam && archived(base[i])).length;
        const ham = idx.filter((i) => !cases[i].spam && archived(base[i])).length;
        return `${spam} / ${ham}`;
      })
      .join(' | ')} |`,
  );
  for (const guard of ARCHIVE_GUARDS) {
    const changed = (a: Assessment, b: Assessment) =>
      guard === 'never_escalated' ? escalated(a) !== escalated(b) : archived(a) !== archived(b);
    const off = withoutGuard(guard, () => cases.map((c) => scoreSignal(c.signal, FIXED_NOW)));
    const cells = sources.map((s) => {
      let spam = 0;
      let ham = 0;
      cases.forEach((c, i) => {
        if (c.source !== s || !changed(base[i], off[i])) return;
        if (c.spam) spam++;
        else ham++;
      });
      return `${spam} / ${ham}`;
    });
    lines.push(`| ${guard} | ${cells.join(' | ')} |`);
  }
  return lines;
}

if (require.main === module) for (const line of invariantTable()) console.log(line);
