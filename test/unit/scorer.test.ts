// The decision engine on hand-written signals (none taken from the evaluation data sets).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  CATEGORIES,
  priorityForScore,
  type Category,
  type Priority,
  type RecommendedAction,
} from '../../lambdas/domain/decision';
import type { JsonValue, Signal } from '../../lambdas/domain/signal';
import { BASE_SCORE, CATEGORY_QUEUE, MODEL_VERSION, REASON_CODES, scoreSignal } from '../../lambdas/domain/engine';
import { TokenBuffer } from '../../lambdas/domain/engine/tokens';
import { tokenizeWith } from '../support/reference-tokenizer';

const NOW = new Date('2026-11-21T10:00:00Z');
const JUST_NOW = '2026-11-21T09:58:00Z';
const hoursFromNow = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString();

/** A signal as these tests write it: the workspace is always the same, the receipt time defaults to just now. */
type Input = Omit<Signal, 'workspace_id' | 'received_at'> & { received_at?: string };

function signal(input: Input): Signal {
  return { workspace_id: 'ws_test', received_at: JUST_NOW, ...input };
}

const score = (input: Input, now = NOW) => scoreSignal(signal(input), now);
const codes = (input: Input, now = NOW) => score(input, now).reasons.map((r) => r.code);

type Row = [name: string, input: Input, priority: Priority, action: RecommendedAction, category: Category];

const TABLE: Row[] = [
  // ---- email: incidents and security ----
  [
    'enterprise outage, urgent',
    {
      source: 'email',
      subject: 'URGENT: API down for all customers',
      body: 'Since 09:10 UTC every request to your API returns 503 Service Unavailable. Our checkout is completely down. Please escalate immediately.',
      sender: 'sre@northwind-retail.com',
      metadata: { customer_tier: 'enterprise' },
    },
    'critical',
    'escalate',
    'incident',
  ],
  [
    'single user asks whether the dashboard is down',
    {
      source: 'email',
      subject: 'Dashboard',
      body: 'Is your dashboard down? It has not loaded for me since this morning.',
      sender: 'li.wei@gmail.com',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'no-reply status page reports a major outage',
    {
      source: 'email',
      subject: '[Major outage] Database cluster eu-west-1 unavailable',
      body: 'We are investigating a major outage affecting database clusters in eu-west-1. This is an automated message, please do not reply.',
      sender: 'no-reply@status.cloudhost.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'phishing report',
    {
      source: 'email',
      subject: 'Phishing mail using your brand',
      body: 'Several of our staff received a phishing email pretending to be your billing team and asking them to re-enter their passwords.',
      sender: 'it-security@contoso-bank.example',
    },
    'high',
    'respond_now',
    'security',
  ],
  [
    'leaked API key',
    {
      source: 'email',
      subject: 'Exposed credentials',
      body: 'Your production API key was exposed in a public GitHub repository an hour ago. Please rotate it.',
      sender: 'researcher@bugbounty.example',
    },
    'high',
    'respond_now',
    'security',
  ],
  [
    'slow service',
    {
      source: 'email',
      subject: 'Slowness',
      body: 'The reporting service is very slow today, pages take ages.',
      sender: 'ops@fabrikam.example',
    },
    'medium',
    'respond',
    'incident',
  ],
  // ---- legal and compliance ----
  [
    'lawsuit threat',
    {
      source: 'email',
      subject: 'Final notice before legal action',
      body: 'If the refund is not issued within 7 days, our lawyers will file a lawsuit.',
      sender: 'm.keller@keller-partner.example',
    },
    'high',
    'respond_now',
    'legal',
  ],
  [
    'GDPR access request',
    {
      source: 'email',
      subject: 'Data request',
      body: 'Under GDPR article 15 I request a copy of all personal data you hold about me.',
      sender: 'anna.berg@web.de',
    },
    'medium',
    'respond',
    'legal',
  ],
  [
    'German legal threat',
    {
      source: 'email',
      subject: 'Vertragsverletzung',
      body: 'Wir werden rechtliche Schritte einleiten, falls Sie nicht reagieren.',
      sender: 'recht@muster-gmbh.example',
    },
    'high',
    'respond_now',
    'legal',
  ],
  [
    'Spanish lawyer',
    {
      source: 'email',
      subject: 'Reclamación',
      body: 'Nuestro abogado se pondrá en contacto con ustedes esta semana.',
      sender: 'direccion@empresa.example',
    },
    'high',
    'respond_now',
    'legal',
  ],
  // ---- billing ----
  [
    'card declined and account locked',
    {
      source: 'email',
      subject: 'Payment problem',
      body: 'My card was declined when renewing and now I am locked out of my account.',
      sender: 'sam@smallshop.example',
    },
    'high',
    'respond_now',
    'billing',
  ],
  [
    'charged twice',
    {
      source: 'email',
      subject: 'Invoice INV-2291',
      body: 'You charged us twice for invoice INV-2291 this month. Please fix this.',
      sender: 'ap@globex.example',
    },
    'medium',
    'respond',
    'billing',
  ],
  [
    'invoice copy request from an enterprise customer',
    {
      source: 'email',
      subject: 'Invoice copy',
      body: 'Could you send us a copy of the October invoice with our VAT number on it?',
      sender: 'finance@initech.example',
      metadata: { customer_tier: 'enterprise' },
    },
    'medium',
    'respond',
    'billing',
  ],
  // ---- churn ----
  [
    'cancellation and switch to another provider (pro tier)',
    {
      source: 'email',
      subject: 'Cancellation',
      body: 'We have decided to cancel our subscription at the end of the month and switch to another provider.',
      sender: 'owner@bakery-schmidt.example',
      metadata: { customer_tier: 'pro' },
    },
    'high',
    'respond_now',
    'churn_risk',
  ],
  [
    'refund demand',
    {
      source: 'email',
      subject: 'Refund',
      body: 'This product does not work for us. I want a full refund.',
      sender: 'j.doe@outlook.com',
    },
    'medium',
    'respond',
    'churn_risk',
  ],
  [
    'not renewing, large contract',
    {
      source: 'email',
      subject: 'Renewal',
      body: 'We will not renew the contract next quarter.',
      sender: 'procurement@megacorp.example',
      metadata: { customer_tier: 'enterprise', deal_value: 250000 },
    },
    'critical',
    'escalate',
    'churn_risk',
  ],
  // ---- sales ----
  [
    'demo and quote for 400 seats',
    {
      source: 'email',
      subject: 'Enterprise plan',
      body: 'We are a 400-person company interested in your enterprise plan. Could we book a demo and get a quote for 400 seats?',
      sender: 'cto@umbrella-logistics.example',
    },
    'medium',
    'respond',
    'sales_opportunity',
  ],
  [
    'large deal value lifts a sales lead',
    {
      source: 'email',
      subject: 'Quote',
      body: 'Please send a quote for the enterprise plan for our three subsidiaries.',
      sender: 'buyer@hooli.example',
      metadata: { deal_value: 180000 },
    },
    'high',
    'respond_now',
    'sales_opportunity',
  ],
  [
    'pricing question from free mail',
    {
      source: 'email',
      subject: 'Question',
      body: 'Hi, what is your pricing for a small team?',
      sender: 'freelancer.tom@gmail.com',
    },
    'medium',
    'respond',
    'sales_opportunity',
  ],
  // ---- support ----
  [
    'cannot log in',
    {
      source: 'email',
      subject: 'Login issue',
      body: 'I can’t log in since the update, it says invalid token.',
      sender: 'maria@designstudio.example',
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'how-to question',
    {
      source: 'email',
      subject: 'Export',
      body: 'How do I export my reports to CSV?',
      sender: 'ben@consulting.example',
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'complaint above a newsletter footer',
    {
      source: 'email',
      subject: 'Still broken',
      body: 'Your app is not working and I cannot log in. This is unacceptable.\n\n--\nYou received this email because you signed up. Unsubscribe here.',
      sender: 'newsletter@partner-mailer.example',
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'shouting customer',
    {
      source: 'email',
      subject: 'WHY IS NOTHING WORKING',
      body: 'NOTHING WORKS SINCE YESTERDAY!!! FIX IT!!!',
      sender: 'angry@client.example',
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'negated outage, real bug',
    {
      source: 'email',
      subject: 'Export button',
      body: 'The site is not down, but the export button is broken.',
      sender: 'qa@partner.example',
    },
    'medium',
    'respond',
    'support',
  ],
  [
    'hedged request',
    {
      source: 'email',
      subject: 'Small thing',
      body: 'Not urgent at all, whenever you have time: the weekly report shows an error in the footer.',
      sender: 'pat@agency.example',
    },
    'low',
    'review',
    'support',
  ],
  // ---- closure, feedback, personal, general ----
  [
    'thanks, that fixed it',
    {
      source: 'email',
      subject: 'Re: Ticket #4471',
      body: 'Thanks, that fixed it! You can close the ticket.',
      sender: 'maria@designstudio.example',
    },
    'low',
    'review',
    'feedback',
  ],
  [
    'praise',
    {
      source: 'email',
      subject: 'Kudos',
      body: 'Just wanted to say we love your product, great job!',
      sender: 'fan@startup.example',
    },
    'low',
    'review',
    'feedback',
  ],
  [
    'personal mail',
    {
      source: 'email',
      subject: 'Saturday',
      body: 'Happy birthday! Dinner on Saturday at 8? The kids are excited.',
      sender: 'mom@family.example',
    },
    'low',
    'review',
    'personal',
  ],
  [
    'ordinary business note',
    {
      source: 'email',
      subject: 'Agenda',
      body: 'Attached is the agenda for the partner meeting on Thursday.',
      sender: 'office@partner.example',
    },
    'low',
    'review',
    'general',
  ],
  // ---- archive: newsletters, notifications, auto-replies, spam ----
  [
    'newsletter',
    {
      source: 'email',
      subject: 'Product news, November edition',
      body: 'New dashboards, faster exports and our upcoming webinar. Read more on our blog.\nView this email in your browser | Manage preferences | Unsubscribe',
      sender: 'news@saasvendor.example',
    },
    'low',
    'archive',
    'newsletter',
  ],
  [
    'GitHub-style notification',
    {
      source: 'email',
      subject: '[acme/api] New comment on pull request #42',
      body: 'octocat commented on this pull request. Reply to this email directly or view it on the web. You are receiving this because you were mentioned.',
      sender: 'notifications@github.example',
    },
    'low',
    'archive',
    'notification',
  ],
  [
    'weekly summary from a no-reply address',
    {
      source: 'email',
      subject: 'Your weekly summary',
      body: 'Your weekly summary is ready. 12 new contacts, 3 deals updated.',
      sender: 'noreply@crm-tool.example',
    },
    'low',
    'archive',
    'notification',
  ],
  [
    'bounce',
    {
      source: 'email',
      subject: 'Undeliverable: Invoice 2291',
      body: 'Delivery has failed to these recipients or groups. The mailbox is full.',
      sender: 'MAILER-DAEMON@mail.example',
    },
    'low',
    'archive',
    'notification',
  ],
  [
    'out of office',
    {
      source: 'email',
      subject: 'Automatic reply: Q3 planning',
      body: 'I am currently out of the office until Monday with limited access to email. For urgent matters contact my colleague.',
      sender: 'h.mueller@supplier.example',
    },
    'low',
    'archive',
    'auto_reply',
  ],
  [
    'German out of office',
    {
      source: 'email',
      subject: 'Abwesenheitsnotiz: Angebot',
      body: 'Ich bin bis zum 12.01. nicht im Büro und habe keinen Zugriff auf meine E-Mails.',
      sender: 'k.schulz@lieferant.example',
    },
    'low',
    'archive',
    'auto_reply',
  ],
  [
    'lottery scam',
    {
      source: 'email',
      subject: 'Congratulations!!!',
      body: 'You have won a USD 1,000,000 lottery prize. Send your bank details to claim your prize.',
      sender: 'promo.desk@freemail-win.example',
    },
    'low',
    'archive',
    'spam',
  ],
  [
    'inheritance scam',
    {
      source: 'email',
      subject: 'Confidential',
      body: 'Dear beneficiary, unclaimed funds of 4.5 million await you as next of kin. A small wire transfer fee is required.',
      sender: 'barrister.office@mailbox.example',
    },
    'low',
    'archive',
    'spam',
  ],
  // ---- languages ----
  [
    'French outage',
    {
      source: 'email',
      subject: 'Panne',
      body: 'Le site est en panne depuis ce matin, c’est urgent !',
      sender: 'support@boutique.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'French cancellation, asap',
    {
      source: 'email',
      subject: 'Résiliation',
      body: 'Bonjour, nous souhaitons résilier notre contrat dès que possible.',
      sender: 'direction@pme.example',
    },
    'high',
    'respond_now',
    'churn_risk',
  ],
  [
    'German outage',
    {
      source: 'email',
      subject: 'Shop nicht erreichbar',
      body: 'Unser Shop ist seit 8 Uhr nicht erreichbar. Bitte dringend prüfen!',
      sender: 'it@handel.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'German cancellation',
    {
      source: 'email',
      subject: 'Kündigung',
      body: 'Hiermit kündigen wir unseren Vertrag zum Monatsende.',
      sender: 'buchhaltung@firma.example',
    },
    'medium',
    'respond',
    'churn_risk',
  ],
  [
    'Spanish outage',
    {
      source: 'email',
      subject: 'Caída',
      body: 'La plataforma está caída y es urgente.',
      sender: 'soporte@tienda.example',
    },
    'high',
    'respond_now',
    'incident',
  ],
  [
    'Spanish cancellation',
    { source: 'email', subject: 'Baja', body: 'Quiero cancelar mi suscripción.', sender: 'cliente@correo.example' },
    'medium',
    'respond',
    'churn_risk',
  ],
  [
    'Spanish, not urgent, invoice',
    {
      source: 'email',
      subject: 'Factura',
      body: 'No es urgente, pero ¿me pueden enviar la factura de octubre?',
      sender: 'admin@oficina.example',
    },
    'low',
    'review',
    'billing',
  ],
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

describe('scoreSignal on a table of realistic signals', () => {
  it('has at least 60 rows over every source and many categories', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
    const sources = new Set(TABLE.map((r) => r[1].source));
    expect(sources.size).toBe(5);
    const categories = new Set(TABLE.map((r) => r[4]));
    for (const c of CATEGORIES) expect(categories).toContain(c);
  });

  it.each(TABLE)('%s', (_name, input, priority, action, category) => {
    const a = score(input);
    const summary = { priority: a.priority, action: a.recommended_action, category: a.category };
    expect({ summary, reasons: a.reasons }).toEqual({ summary: { priority, action, category }, reasons: a.reasons });
    expect(a.queue).toBe(category === 'general' ? a.queue : CATEGORY_QUEUE[category]);
    expect(a.model_version).toBe(MODEL_VERSION);
    expect(a.priority).toBe(priorityForScore(a.score));
  });
});

describe('reasons', () => {
  const outage: Input = {
    source: 'email',
    subject: 'Production down',
    body: 'Our site is down for all customers. Please fix this ASAP!!',
    sender: 'ops@acme.example',
    metadata: { customer_tier: 'enterprise', tags: ['urgent'] },
  };

  it('are ordered by absolute weight, then by code', () => {
    const { reasons } = score(outage);
    for (let i = 1; i < reasons.length; i++) {
      const [a, b] = [reasons[i - 1], reasons[i]];
      expect(
        Math.abs(a.weight) > Math.abs(b.weight) || (Math.abs(a.weight) === Math.abs(b.weight) && a.code < b.code),
      ).toBe(true);
    }
  });

  it('sum to score - BASE_SCORE when nothing is clamped', () => {
    const a = score({ source: 'email', subject: 'Login', body: 'I cannot log in.', sender: 'x@corp.example' });
    expect(a.reasons.reduce((s, r) => s + r.weight, 0)).toBe(a.score - BASE_SCORE);
  });

  it('never hold more of the body than a matched keyword', () => {
    const secret = 'Tracking number ZX-99812 for Mrs. Example at 12 Sample Road';
    const a = score({
      source: 'email',
      subject: 'Outage',
      body: `${secret}. Our site is down.`,
      sender: 'a@b.example',
    });
    const text = JSON.stringify(a.reasons);
    expect(text).not.toContain('ZX-99812');
    expect(text).not.toContain('Sample Road');
    for (const r of a.reasons) expect(r.message.length).toBeLessThan(120);
  });

  it('use only catalogued codes, within the catalogued weight range', () => {
    for (const [, input] of TABLE) {
      for (const r of score(input).reasons) {
        const info = REASON_CODES[r.code as keyof typeof REASON_CODES];
        expect(info).toBeDefined();
        expect(r.weight).toBeGreaterThanOrEqual(info.min);
        expect(r.weight).toBeLessThanOrEqual(info.max);
        expect(Number.isInteger(r.weight)).toBe(true);
        expect(r.weight).not.toBe(0);
      }
    }
  });

  it('explain the enterprise tier the way the contract example does', () => {
    expect(score(outage).reasons).toContainEqual({
      code: 'VIP_CUSTOMER',
      message: 'metadata.customer_tier is enterprise',
      weight: 15,
    });
    expect(codes(outage)).toContain('OUTAGE_LANGUAGE');
  });
});

describe('negation and hedging', () => {
  it('"not down" and "isn\'t broken" do not count as problems', () => {
    expect(codes({ source: 'email', body: 'Good news: the site is not down and nothing isn’t broken.' })).not.toContain(
      'OUTAGE_LANGUAGE',
    );
    expect(codes({ source: 'email', body: 'The importer isn’t broken, I was using it wrong.' })).not.toContain(
      'SUPPORT_REQUEST',
    );
    expect(codes({ source: 'email', body: 'We had no outage this quarter.' })).not.toContain('OUTAGE_LANGUAGE');
  });

  it('"not urgent" and "no rush" lower the score instead of raising it', () => {
    const urgent = score({ source: 'email', body: 'Urgent: please update the billing address on my invoice.' });
    const hedged = score({ source: 'email', body: 'Not urgent: please update the billing address on my invoice.' });
    const noRush = score({ source: 'email', body: 'No rush, please update the billing address on my invoice.' });
    expect(codes({ source: 'email', body: 'Not urgent: please update the billing address.' })).toContain('NOT_URGENT');
    expect(codes({ source: 'email', body: 'Not urgent: please update the billing address.' })).not.toContain(
      'URGENCY_LANGUAGE',
    );
    expect(hedged.score).toBeLessThan(urgent.score);
    expect(noRush.score).toBeLessThan(urgent.score);
  });

  it('handles German, French and Spanish hedges', () => {
    for (const body of ['Nicht dringend, aber bitte prüfen.', 'Ce n’est pas urgent.', 'No es urgente.']) {
      const c = codes({ source: 'email', body });
      expect(c).toContain('NOT_URGENT');
      expect(c).not.toContain('URGENCY_LANGUAGE');
    }
  });
});

describe('shouting', () => {
  it('gives one small bump, however loud', () => {
    const calm = score({ source: 'email', subject: 'Help', body: 'The export is broken.' });
    const loud = score({
      source: 'email',
      subject: 'HELP HELP HELP',
      body: 'THE EXPORT IS BROKEN!!! FIX IT!!! NOW!!!!!!',
    });
    const shout = loud.reasons.filter((r) => r.code === 'SHOUTING');
    expect(shout).toHaveLength(1);
    expect(shout[0].weight).toBe(5);
    expect(loud.score - calm.score).toBeLessThanOrEqual(5 + 15); // shouting plus at most the urgency cap
  });
});

describe('archive never swallows a real problem', () => {
  it('does not archive a no-reply system alert about an outage', () => {
    const a = score({
      source: 'email',
      subject: 'Service outage detected',
      body: 'Your site is down. This is an automated notification, do not reply.',
      sender: 'noreply@monitoring.example',
    });
    expect(a.recommended_action).not.toBe('archive');
    expect(a.category).toBe('incident');
    expect(a.reasons.map((r) => r.code)).not.toContain('NO_REPLY_SENDER');
  });

  it('does not archive a complaint that has an unsubscribe footer', () => {
    const a = score({
      source: 'email',
      subject: 'Charged twice',
      body: 'You charged my card twice this month and nobody has replied to my emails.\n\nUnsubscribe | Manage preferences',
      sender: 'customer@shop.example',
    });
    expect(a.recommended_action).not.toBe('archive');
    expect(a.category).toBe('billing');
  });

  it('does archive the same footer when nothing is wrong', () => {
    const a = score({
      source: 'email',
      subject: 'Our November update',
      body: 'Read more on our blog.\n\nUnsubscribe | Manage preferences',
    });
    expect(a.recommended_action).toBe('archive');
  });

  it('does not archive a spam-looking message from a partner-vouched customer', () => {
    const a = score({
      source: 'support_message',
      body: 'Call me back on 07700 900123, free entry to claim my prize is broken',
      metadata: { customer_tier: 'enterprise' },
    });
    expect(a.recommended_action).not.toBe('archive');
  });
});

describe('sender', () => {
  it('VIP via metadata.vip', () => {
    const a = score({ source: 'email', body: 'Can we talk tomorrow?', sender: 'x@y.example', metadata: { vip: true } });
    expect(a.reasons).toContainEqual({ code: 'VIP_SENDER', message: 'metadata.vip is true', weight: 15 });
  });

  it('VIP via metadata.vip_senders, with a display name, by address or domain', () => {
    const byAddress = codes({
      source: 'email',
      body: 'Can we talk tomorrow?',
      sender: 'Jane Doe <CEO@BigClient.example>',
      metadata: { vip_senders: ['ceo@bigclient.example'] },
    });
    const byDomain = codes({
      source: 'email',
      body: 'Can we talk tomorrow?',
      sender: 'someone@bigclient.example',
      metadata: { vip_senders: ['@bigclient.example'] },
    });
    const other = codes({
      source: 'email',
      body: 'Hi',
      sender: 'a@other.example',
      metadata: { vip_senders: ['ceo@bigclient.example'] },
    });
    expect(byAddress).toContain('VIP_SENDER');
    expect(byDomain).toContain('VIP_SENDER');
    expect(other).not.toContain('VIP_SENDER');
  });

  it('no-reply and mailer-daemon addresses lean to archive when nothing is wrong', () => {
    for (const sender of [
      'noreply@x.example',
      'no-reply@x.example',
      'notifications@x.example',
      'mailer-daemon@x.example',
      'do-not-reply@x.example',
    ]) {
      expect(codes({ source: 'email', body: 'Your statement is available.', sender })).toContain('NO_REPLY_SENDER');
    }
  });

  it('business vs free-mail domain matters for sales leads', () => {
    const biz = score({
      source: 'email',
      body: 'Could you send a quote for 50 seats?',
      sender: 'buyer@acme-industries.example',
    });
    const free = score({ source: 'email', body: 'Could you send a quote for 50 seats?', sender: 'buyer@gmail.com' });
    expect(biz.reasons.map((r) => r.code)).toContain('SENDER_BUSINESS_DOMAIN');
    expect(free.reasons.map((r) => r.code)).toContain('SENDER_FREE_MAIL');
    expect(biz.score).toBeGreaterThan(free.score);
  });
});

describe('metadata hints', () => {
  const base: Input = {
    source: 'email',
    subject: 'Question',
    body: 'I cannot open the invoice PDF.',
    sender: 'a@b.example',
  };
  it('customer_tier enterprise > pro > none > free', () => {
    const s = (tier?: string) => score({ ...base, metadata: tier ? { customer_tier: tier } : {} }).score;
    expect(s('enterprise')).toBeGreaterThan(s('pro'));
    expect(s('pro')).toBeGreaterThan(s());
    expect(s()).toBeGreaterThan(s('free'));
    expect(s('Enterprise')).toBe(s('enterprise'));
  });

  it('tags: urgent raises, topics set the category', () => {
    expect(codes({ ...base, metadata: { tags: ['urgent'] } })).toContain('TAG_URGENT');
    const tagged = score({ source: 'email', subject: 'FYI', body: 'See attached.', metadata: { tags: ['Outage'] } });
    expect(tagged.category).toBe('incident');
    expect(tagged.reasons.map((r) => r.code)).toContain('TAG_TOPIC');
  });

  it('amount / deal_value raise sales priority, more for bigger deals', () => {
    const lead: Input = {
      source: 'email',
      body: 'Please send a quote for the enterprise plan.',
      sender: 'b@c.example',
    };
    const small = score(lead).score;
    const mid = score({ ...lead, metadata: { amount: 20000 } }).score;
    const big = score({ ...lead, metadata: { deal_value: '250,000' } }).score;
    expect(mid).toBeGreaterThan(small);
    expect(big).toBeGreaterThan(mid);
  });

  it('due_at: overdue > due within 24 h > within 3 days > later, relative to now', () => {
    const task = (due: string) => score({ source: 'task', subject: 'Prepare report', metadata: { due_at: due } });
    const overdue = task(hoursFromNow(-1));
    const soon = task(hoursFromNow(5));
    const days = task(hoursFromNow(60));
    const later = task(hoursFromNow(24 * 10));
    expect(overdue.reasons.map((r) => r.code)).toContain('DUE_OVERDUE');
    expect(soon.reasons.map((r) => r.code)).toContain('DUE_WITHIN_24H');
    expect(days.reasons.map((r) => r.code)).toContain('DUE_WITHIN_3_DAYS');
    expect(overdue.score).toBeGreaterThan(soon.score);
    expect(soon.score).toBeGreaterThan(days.score);
    expect(days.score).toBeGreaterThan(later.score);
    // The same task analysed two days later is overdue.
    const again = scoreSignal(
      signal({ source: 'task', subject: 'Prepare report', metadata: { due_at: hoursFromNow(5) } }),
      new Date(NOW.getTime() + 48 * 3_600_000),
    );
    expect(again.reasons.map((r) => r.code)).toContain('DUE_OVERDUE');
  });

  it('due_at accepts dates and offsets, ignores local times and junk', () => {
    expect(codes({ source: 'task', subject: 'x', metadata: { due_at: '2026-11-20' } })).toContain('DUE_OVERDUE');
    expect(codes({ source: 'task', subject: 'x', metadata: { due_at: '2026-11-21T12:00:00+03:00' } })).toContain(
      'DUE_OVERDUE',
    );
    expect(codes({ source: 'task', subject: 'x', metadata: { due_at: '2026-11-21T12:00:00Z' } })).toContain(
      'DUE_WITHIN_24H',
    );
    for (const due_at of ['2026-11-21T12:00:00', 'tomorrow', '1', 12345, { at: 'x' }, ['2026-11-20']] as JsonValue[]) {
      const c = codes({ source: 'task', subject: 'x', metadata: { due_at } });
      expect(c.filter((x) => x.startsWith('DUE_'))).toEqual([]);
    }
  });

  it('severity: sev1 > sev2 > warning > info, as words or numbers', () => {
    const s = (severity: JsonValue) =>
      score({ source: 'internal', subject: 'Queue depth alert on worker pool', metadata: { severity } }).score;
    expect(s('sev1')).toBeGreaterThan(s('sev2'));
    expect(s('sev2')).toBeGreaterThan(s('warning'));
    expect(s('warning')).toBeGreaterThan(s('info'));
    expect(s(1)).toBe(s('sev1'));
    expect(s('CRITICAL')).toBe(s('sev1'));
    expect(s(3)).toBe(s('warning'));
    expect(s(5)).toBe(s('info'));
  });

  it('metadata.severity beats severity words in the text', () => {
    const a = score({ source: 'internal', subject: 'SEV1 drill: ignore', metadata: { severity: 'info' } });
    expect(a.reasons.map((r) => r.code)).toContain('SEVERITY_LOW');
    expect(a.reasons.map((r) => r.code)).not.toContain('SEVERITY_CRITICAL');
  });

  it('ignores metadata of the wrong shape', () => {
    const weird = score({
      ...base,
      metadata: {
        customer_tier: 42,
        vip: 'maybe',
        tags: { a: 1 },
        due_at: null,
        amount: 'lots',
        severity: [1],
        vip_senders: 'nope',
      },
    });
    const plain = score(base);
    expect(weird.score).toBe(plain.score);
  });
});

describe('received_at', () => {
  const req: Input = { source: 'email', subject: 'Login', body: 'I cannot log in.', sender: 'a@b.example' };
  it('a signal that waited > 4 h or > 24 h is more pressing', () => {
    const fresh = score({ ...req, received_at: hoursFromNow(-1) });
    const fiveHours = score({ ...req, received_at: hoursFromNow(-5) });
    const twoDays = score({ ...req, received_at: hoursFromNow(-48) });
    expect(fiveHours.reasons.map((r) => r.code)).toContain('WAITING_OVER_4H');
    expect(twoDays.reasons.map((r) => r.code)).toContain('WAITING_OVER_24H');
    expect(fiveHours.score).toBeGreaterThan(fresh.score);
    expect(twoDays.score).toBeGreaterThan(fiveHours.score);
  });

  it('a future received_at is not more pressing', () => {
    const future = score({ ...req, received_at: hoursFromNow(20) });
    const fresh = score({ ...req, received_at: hoursFromNow(-1) });
    expect(future.score).toBe(fresh.score);
    expect(future.reasons.map((r) => r.code).filter((c) => c.startsWith('WAITING'))).toEqual([]);
  });

  it('waiting does not lift archive-type mail', () => {
    const a = score({
      source: 'email',
      subject: 'Newsletter',
      body: 'Read more. Unsubscribe',
      received_at: hoursFromNow(-72),
    });
    expect(a.recommended_action).toBe('archive');
  });
});

describe('languages', () => {
  it.each([
    ['Bitte dringend antworten.', 'URGENCY_LANGUAGE'],
    ['Bitte sofort prüfen.', 'URGENCY_LANGUAGE'],
    ['C’est urgent.', 'URGENCY_LANGUAGE'],
    ['Es urgente.', 'URGENCY_LANGUAGE'],
    ['Ausfall im Rechenzentrum.', 'OUTAGE_LANGUAGE'],
    ['Serveur en panne.', 'OUTAGE_LANGUAGE'],
    ['Hay una caída del servicio.', 'OUTAGE_LANGUAGE'],
    ['El servidor está caído.', 'OUTAGE_LANGUAGE'],
    ['Wir möchten kündigen.', 'CHURN_LANGUAGE'],
    ['Je veux résilier.', 'CHURN_LANGUAGE'],
    ['Quiero cancelar.', 'CHURN_LANGUAGE'],
  ])('recognizes "%s"', (body, code) => {
    expect(codes({ source: 'email', body })).toContain(code);
  });

  it('folds case and diacritics: KÜNDIGEN, kundigen, Re\u0301silier', () => {
    for (const w of ['KÜNDIGEN', 'kundigen', 'Re\u0301silier'])
      expect(codes({ source: 'email', body: w })).toContain('CHURN_LANGUAGE');
  });
});

describe('internal alert numbers', () => {
  it.each([
    ['disk 95% full', 'METRIC_CRITICAL'],
    ['Disk usage at 88% on db-1', 'METRIC_WARNING'],
    ['error rate 40%', 'METRIC_CRITICAL'],
    ['error rate is 3.5%', 'METRIC_WARNING'],
    ['p99 latency 4s', 'METRIC_CRITICAL'],
    ['p95 latency 1500ms', 'METRIC_WARNING'],
    ['CPU at 98%', 'METRIC_CRITICAL'],
    ['memory 91 percent', 'METRIC_WARNING'],
    ['95% disk used', 'METRIC_CRITICAL'],
  ])('%s', (text, code) => {
    expect(codes({ source: 'internal', subject: text })).toContain(code);
  });

  it.each(['disk 40% full', 'CPU at 12%', 'p99 latency 120ms', 'error rate 0.1%', 'disk 950% full', 'cpu 98 cores'])(
    '%s is no metric reason',
    (text) => {
      expect(codes({ source: 'internal', subject: text }).filter((c) => c.startsWith('METRIC'))).toEqual([]);
    },
  );
});

describe('determinism and robustness', () => {
  it('gives the same decision for the same signal and now', () => {
    for (const [, input] of TABLE) expect(score(input)).toEqual(score(input));
  });

  it('does not depend on what was scored before', () => {
    const probe: Input = {
      source: 'email',
      subject: 'Outage',
      body: 'Our site is down, urgent!',
      sender: 'a@b.example',
    };
    const first = score(probe);
    for (const [, input] of TABLE) score(input);
    expect(score(probe)).toEqual(first);
  });

  // How fast is the bench's question (npm run bench), not a test's.
  it('handles a 200,000-character body deterministically', () => {
    const body = 'All good here. '.repeat(13_000) + 'Our site is down!';
    const a = score({ source: 'email', body });
    expect(score({ source: 'email', body })).toEqual(a);
  });

  it('accepts an invalid now or received_at without throwing', () => {
    expect(() =>
      scoreSignal(signal({ source: 'email', body: 'x', received_at: 'garbage' }), new Date('nope')),
    ).not.toThrow();
  });
});

describe('tokenizer copies', () => {
  it('the narrow and wide copies of the loop give identical tokens', () => {
    const texts = [
      'Hello, World! It’s 42% — naïve Straße?',
      'plain ascii text. with: punctuation; and\nlines!!',
      'e\u0301te\u0301 déjà vu',
    ];
    for (const text of texts) {
      const a = new TokenBuffer();
      const b = new TokenBuffer();
      a.reset();
      b.reset();
      tokenizeWith('narrow', a, text, 1, 1000);
      tokenizeWith('wide', b, text, 1, 1000);
      expect(Array.from(a.h1.subarray(0, a.count))).toEqual(Array.from(b.h1.subarray(0, b.count)));
      expect(Array.from(a.clause.subarray(0, a.count))).toEqual(Array.from(b.clause.subarray(0, b.count)));
    }
  });
});

describe('docs/decision-engine.md', () => {
  it('documents every reason code', () => {
    const doc = readFileSync(path.resolve(__dirname, '../../docs/decision-engine.md'), 'utf8');
    for (const code of Object.keys(REASON_CODES)) expect(doc).toContain(`\`${code}\``);
  });
});
