// Rows of the table of realistic signals (test/support/scorer-table.ts), hand-written, none taken from the
// evaluation data sets. The sources other than email: task, crm_event, support_message, internal.
import { hoursFromNow, type Row } from './scorer-signals';

export const OTHER_SOURCE_ROWS: Row[] = [
  // ---- task ----
  [
    'overdue task',
    { source: 'task', subject: 'Renew TLS certificate for shop.example.com', metadata: { due_at: hoursFromNow(-20) } },
    'medium',
    'respond',
    'task',
  ],
  [
    'task due in 6 hours',
    { source: 'task', subject: 'Send board deck to finance', metadata: { due_at: hoursFromNow(6) } },
    'medium',
    'respond',
    'task',
  ],
  [
    'task due in 2 days',
    { source: 'task', subject: 'Review Q4 hiring plan', metadata: { due_at: hoursFromNow(48) } },
    'low',
    'review',
    'task',
  ],
  [
    'task due next month',
    { source: 'task', subject: 'Plan team offsite', metadata: { due_at: hoursFromNow(24 * 30) } },
    'low',
    'review',
    'task',
  ],
  [
    'task about a broken feature is a support case',
    {
      source: 'task',
      subject: 'Fix checkout bug reported by ACME',
      body: 'Checkout is broken for Safari users.',
      metadata: { due_at: hoursFromNow(8) },
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'task about a production outage is an incident',
    {
      source: 'task',
      subject: 'Production is down',
      body: 'The site is down for everyone, investigate now.',
      metadata: { tags: ['urgent'] },
    },
    'critical',
    'escalate',
    'incident',
  ],
  // ---- crm_event ----
  [
    'opportunity created with a large amount',
    {
      source: 'crm_event',
      subject: 'Opportunity created: ACME expansion',
      metadata: { event_type: 'opportunity_created', amount: 150000 },
    },
    'high',
    'respond_now',
    'sales_opportunity',
  ],
  [
    'enterprise subscription cancelled',
    {
      source: 'crm_event',
      subject: 'Globex',
      metadata: { event_type: 'subscription_cancelled', customer_tier: 'enterprise' },
    },
    'high',
    'respond_now',
    'churn_risk',
  ],
  [
    'invoice payment failed',
    {
      source: 'crm_event',
      subject: 'Invoice INV-7781',
      metadata: { event_type: 'invoice.payment_failed', amount: 4200 },
    },
    'medium',
    'respond',
    'billing',
  ],
  [
    'renewal at risk',
    {
      source: 'crm_event',
      subject: 'Account health',
      body: 'Health score dropped; renewal at risk.',
      metadata: { customer_tier: 'business' },
    },
    'high',
    'respond_now',
    'churn_risk',
  ],
  [
    'plain CRM note',
    { source: 'crm_event', subject: 'Call notes', body: 'Discussed the roadmap and next steps with the customer.' },
    'low',
    'review',
    'general',
  ],
  // ---- support_message ----
  [
    'chat: app crashes',
    { source: 'support_message', body: 'hi, the app keeps crashing when I upload a photo' },
    'medium',
    'respond',
    'support',
  ],
  [
    'chat: service down again',
    { source: 'support_message', body: 'your service is down again!!!' },
    'critical',
    'escalate',
    'incident',
  ],
  ['chat: works now', { source: 'support_message', body: 'works now, thanks!' }, 'low', 'review', 'feedback'],
  [
    'chat: order not arrived',
    { source: 'support_message', body: 'Where is my order #55321? It still hasn’t arrived.' },
    'medium',
    'respond',
    'support',
  ],
  [
    'SMS-style prize spam',
    {
      source: 'support_message',
      body: 'WINNER!! You have been selected to receive a 900 GBP prize reward! To claim call 09061701461 now',
    },
    'low',
    'archive',
    'spam',
  ],
  [
    'chat: call-back request with a phone number',
    { source: 'support_message', body: 'Please call me back on 07700 900123 about my account' },
    'medium',
    'respond',
    'support',
  ],
  // ---- internal ----
  [
    'sev1 alert with error rate',
    { source: 'internal', subject: '[FIRING] checkout-api error rate 42%', metadata: { severity: 'sev1' } },
    'critical',
    'escalate',
    'incident',
  ],
  [
    'disk warning',
    { source: 'internal', subject: 'Disk usage 87% on db-2', metadata: { severity: 'warning' } },
    'medium',
    'respond',
    'incident',
  ],
  [
    'CPU high, severity 2',
    { source: 'internal', subject: 'CPU at 98% on worker-7 for 15 minutes', metadata: { severity: 2 } },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'latency in milliseconds',
    { source: 'internal', subject: 'p99 latency 4200ms on search-api' },
    'medium',
    'respond',
    'incident',
  ],
  [
    'backup completed (info)',
    { source: 'internal', subject: 'Nightly backup completed successfully', metadata: { severity: 'info' } },
    'low',
    'archive',
    'notification',
  ],
  [
    'resolved alert',
    {
      source: 'internal',
      subject: '[RESOLVED] p99 latency 4.2s on search-api',
      body: 'Alert cleared.',
      metadata: { severity: 'critical' },
    },
    'low',
    'archive',
    'notification',
  ],
  [
    'internal sev2 text, no metadata',
    { source: 'internal', subject: 'SEV2: payments webhook failing for EU merchants' },
    'high',
    'respond_now',
    'incident',
  ],
];
