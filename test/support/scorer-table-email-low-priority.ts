// Rows of the table of realistic signals (test/support/scorer-table.ts), hand-written, none taken from the
// evaluation data sets. Low-priority email: closure, feedback, personal and general mail to review; newsletters,
// notifications, auto-replies and spam to archive.
import type { Row } from './scorer-signals';

export const EMAIL_LOW_PRIORITY_ROWS: Row[] = [
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
];
