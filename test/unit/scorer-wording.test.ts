// How the decision engine reads the words of hand-written signals (none taken from the evaluation data sets):
// negation and hedges, shouting, other languages, alert numbers, and the two copies of the tokenizer loop.
import { TokenBuffer } from '../../lambdas/domain/engine/tokens';
import { codes, score } from '../support/scorer-signals';
import { tokenizeWith } from '../support/reference-tokenizer';

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

  it('reads full-width Latin (Japanese input) and ligatures as the letters they stand for', () => {
    const ascii = score({ source: 'email', subject: 'URGENT: SERVER DOWN', body: 'The production server is down.' });
    const wide = score({
      source: 'email',
      subject: 'ＵＲＧＥＮＴ：ＳＥＲＶＥＲ　ＤＯＷＮ',
      body: 'Ｔｈｅ production server is down．',
    });
    expect(wide.priority).toBe(ascii.priority);
    expect(codes({ source: 'email', subject: 'ＵＲＧＥＮＴ', body: 'Please reply.' })).toContain('URGENCY_LANGUAGE');
    expect(codes({ source: 'email', body: 'The ﬁle server is oﬀline.' })).toContain('OUTAGE_LANGUAGE');
  });

  it('reads the modifier letter apostrophe (U+02BC) as an apostrophe: "isnʼt broken" is no problem', () => {
    expect(codes({ source: 'email', body: 'The site isnʼt down.' })).not.toContain('OUTAGE_LANGUAGE');
    expect(codes({ source: 'email', body: 'The site isn’t down.' })).not.toContain('OUTAGE_LANGUAGE');
  });
});

describe('topics do not pile up', () => {
  it('counts the strongest other topic at half, whatever its category: an outage beside a cancellation stays', () => {
    const a = score({
      source: 'email',
      sender: 'ann@customer.example',
      subject: 'Complaint',
      body: 'Our site is down. I want to cancel my subscription. I want a refund.',
    });
    expect(a.reasons.find((r) => r.code === 'OUTAGE_LANGUAGE')?.message).toMatch(/second topic, half weight/);
    expect(['high', 'critical']).toContain(a.priority);
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
    // Phrases a word group claims as well: the number beside them is still read.
    ['packet loss 40% on edge-1', 'METRIC_CRITICAL'],
    ['errors 5% of requests', 'METRIC_WARNING'],
    // A number inside a host's name is no reading: the one after it is.
    ['CPU usage on web-3 is at 98%', 'METRIC_CRITICAL'],
    ['Disk usage on db_1 at 96%', 'METRIC_CRITICAL'],
    ['p99 latency on api-2 is 4s', 'METRIC_CRITICAL'],
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
