// Hand-written monitoring alerts and bug/task texts with the severity their (imagined) authors would give them
// (hand-written-cases.json). Written for the behaviour tests (test/unit/engine-alerts.test.ts) from general knowledge
// of how alert rules and bug reports read: an alert name, a one-line summary, a description with template
// placeholders. They are NOT a quality measure: the same person wrote them and the lexicon, and no real labeled alerts
// or tickets are in ../shared/data. `npm run eval` prints a rank correlation on them, marked as such.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Signal } from '../../lambdas/domain/signal';

export type AlertLabel = 'critical' | 'warning' | 'info';
export type TicketLabel = 'high' | 'medium' | 'low';

interface AlertCase {
  name: string;
  summary: string;
  description: string;
  label: AlertLabel;
}

interface TicketCase {
  title: string;
  description: string;
  label: TicketLabel;
  /** The category the text supports, when it says more than "a task". */
  category?: 'incident' | 'security' | 'support' | 'task';
}

const cases = JSON.parse(readFileSync(path.join(__dirname, 'hand-written-cases.json'), 'utf8')) as {
  alerts: readonly AlertCase[];
  tickets: readonly TicketCase[];
};
export const ALERT_CASES = cases.alerts;
export const TICKET_CASES = cases.tickets;

/** An alert as the service may receive it: the rule's name as subject, summary and description as body. */
export function alertSignal(c: AlertCase, source: 'internal' | 'email' = 'internal'): Signal {
  return {
    workspace_id: 'ws_eval',
    source,
    received_at: '2026-03-02T09:59:00Z',
    subject: c.name,
    body: `${c.summary}\n${c.description}`,
  };
}

/** A bug or task as a tracker sends it: title as subject, description as body. */
export function ticketSignal(c: TicketCase): Signal {
  return {
    workspace_id: 'ws_eval',
    source: 'task',
    received_at: '2026-03-02T09:59:00Z',
    subject: c.title,
    body: c.description,
  };
}

export const TICKET_LEVEL: Record<TicketLabel, number> = { high: 3, medium: 2, low: 1 };
