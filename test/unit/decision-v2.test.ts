// The fields of version 2 of the decision (docs/partners.md, The decision): confidence, language, sentiment, respond_by,
// policy_version and model_version, and buildDecision taking a workspace's policy.
import { DEFAULT_RESPONSE_MINUTES, buildDecision, type Assessment } from '../../lambdas/domain/decision';
import { MODEL_VERSION } from '../../lambdas/domain/engine';
import { confidenceOf } from '../../lambdas/domain/engine/confidence';
import { scorerAt } from '../support/scoring';

const NOW = new Date('2026-03-02T10:00:00Z');
const score = scorerAt(NOW, { workspace_id: 'ws_test', received_at: '2026-03-02T09:00:00Z' });
const ids = {
  decision_id: 'dec_01JD2X5R8Q4T7W9Y3K6M1N0P2S',
  workspace_id: 'ws_test',
  source: 'email',
  received_at: '2026-03-02T09:00:00Z',
  created_at: '2026-03-02T10:00:00.000Z',
};
const assessment = (over: Partial<Assessment>): Assessment => ({
  score: 50,
  priority: 'medium',
  recommended_action: 'respond',
  category: 'support',
  queue: 'support',
  reasons: [],
  model_version: MODEL_VERSION,
  confidence: 0.8,
  language: 'en',
  sentiment: 'neutral',
  ...over,
});

describe('confidence', () => {
  it('is lower for thin evidence than for strong, consistent evidence', () => {
    const thin = score({ source: 'email', subject: 'Hello', body: 'See you next week.' });
    const strong = score({
      source: 'email',
      subject: 'Production outage',
      body: 'Our production site is down for all customers since 9:00, please help urgently.',
    });
    expect(thin.confidence).toBeLessThan(strong.confidence);
  });

  it('is lower when the evidence conflicts (a refund demand and a sales enquiry in one text) than when it agrees', () => {
    // The same spam reading for both, so only the category's margin differs: evidence as scoreSignal measures it
    // for "a quote for 200 seats and a demo" (sales 25, no runner-up) and for "a refund, and a quote" (churn 25,
    // sales 12.5). The learned weight of the margin is small (bin/train-confidence.ts): never the wrong way round.
    const same = {
      source: 'email',
      archived: false,
      spamProbability: 0.1,
      score: 45,
      reasons: [{ code: 'SALES_INTEREST', message: 'x', weight: 25 }],
      words: 20,
    } as const;
    const agreeing = confidenceOf({ ...same, category: 'sales_opportunity', best: 25, second: 0 });
    const conflicting = confidenceOf({ ...same, category: 'churn_risk', best: 25, second: 12.5 });
    expect(conflicting).toBeLessThanOrEqual(agreeing);
    const refundAndQuote = score({
      source: 'email',
      body: 'I want a refund for last month. Also, could you send a quote for 200 seats of the enterprise plan?',
    });
    expect(refundAndQuote.category).toBe('churn_risk');
    expect(refundAndQuote.reasons.map((r) => r.code)).toEqual(
      expect.arrayContaining(['REFUND_DEMAND', 'SALES_INTEREST']),
    );
  });

  it('does not let a doubtful spam vote on a short text lower the confidence of what the text plainly says', () => {
    const outage = score({
      source: 'email',
      subject: 'Production outage',
      body: 'Our production site is down for all customers since 9:00, please help urgently.',
    });
    expect(outage.category).toBe('incident');
    expect(outage.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('is a number from 0 to 1 with at most two decimals', () => {
    const a = score({ source: 'email', body: 'My card was declined twice today.' });
    expect(a.confidence).toBeGreaterThanOrEqual(0);
    expect(a.confidence).toBeLessThanOrEqual(1);
    expect(Math.round(a.confidence * 100) / 100).toBe(a.confidence);
  });
});

describe('language', () => {
  it.each([
    ['en', 'Could you please check why the export is missing from the report? Thanks for your help with this.'],
    [
      'de',
      'Können Sie bitte prüfen, warum der Export in dem Bericht fehlt? Vielen Dank für Ihre Hilfe und die schnelle Antwort.',
    ],
    [
      'fr',
      'Pouvez-vous vérifier pourquoi les données ne sont pas dans le rapport? Merci pour votre aide avec cette question.',
    ],
    [
      'es',
      'Podría revisar por qué los datos no están en el informe? Gracias por su ayuda con esta pregunta y por la respuesta.',
    ],
  ])('tells %s', (language, body) => {
    expect(score({ source: 'email', body }).language).toBe(language);
  });

  // Few or no function words: the character trigrams decide (language-trigrams.json).
  it.each([
    ['pt', 'Amanhã cedo vou trabalhar, tenho reunião importante.'],
    ['it', 'Stasera il server della contabilità è lentissimo.'],
    ['nl', 'Morgenochtend vroeg naar kantoor, belangrijke vergadering.'],
    ['es', 'Mañana temprano voy a la oficina, reunión importante.'],
    ['de', 'Morgen früh ins Büro, wichtige Besprechung.'],
    // Read as pt with 100 trigrams per language; the full 300 tell them.
    ['it', 'Fatturazione sospesa da marzo, verificare addebiti duplicati urgentemente.'],
    ['it', 'Server irraggiungibili dopo aggiornamento notturno; utenti segnalano errori continui.'],
  ])('tells %s from a sentence with few function words', (language, body) => {
    expect(score({ source: 'email', body }).language).toBe(language);
  });

  // Short English subjects with few function words: the trigrams alone named these Dutch or French; English words of
  // business and operations text (language-english-words.json) count as function words do.
  it.each(['Weekly budget review', 'Certificate expires soon', 'Login page broken after deploy'])(
    'tells en from a short English subject: %s',
    (subject) => {
      expect(score({ source: 'internal', body: subject }).language).toBe('en');
    },
  );

  it('leaves short subjects of the other languages theirs when they borrow English words', () => {
    expect(score({ source: 'email', body: 'Wekelijkse budget review' }).language).toBe('nl');
    expect(score({ source: 'email', body: 'Relatório semanal de performance' }).language).toBe('pt');
    expect(score({ source: 'email', body: 'Rapporto settimanale del budget' }).language).toBe('it');
    // Words the others write with an accent are theirs once folded ("expiré" is "expire"): a first list had them.
    expect(score({ source: 'email', body: 'Certificat expiré' }).language).toBe('fr');
    expect(score({ source: 'email', body: 'Création vidéo' }).language).toBe('fr');
  });

  // Letters only some of the languages write count as well, in the subject as in the body; the first the detector
  // reads is U+00A1, the opening exclamation mark.
  it('tells es from the opening exclamation mark, which the same words without it do not say', () => {
    expect(score({ source: 'support_message', body: 'Pedido ahora!' }).language).toBe('pt');
    expect(score({ source: 'support_message', body: '¡Pedido ahora!' }).language).toBe('es');
    expect(score({ source: 'support_message', subject: '¡Pedido ahora!', body: 'Pedido ahora' }).language).toBe('es');
  });

  // Latin letters none of the seven writes: the trigrams alone named these German, Spanish or Portuguese.
  it.each([
    ['Turkish', 'Sipariş durumunu öğrenmek istiyorum, yardımcı olur musunuz?'],
    ['Polish', 'Proszę o szybką odpowiedź, faktura jest błędna.'],
    ['Czech', 'Prosím o rychlou odpověď, faktura je chybná.'],
    ['Romanian', 'Vă rog să verificați factura, suma este greșită.'],
    ['Polish in capitals', 'NIE MOGĘ SIĘ ZALOGOWAĆ DO KONTA, HASŁO NIE DZIAŁA'],
    ['Vietnamese in capitals', 'TÔI KHÔNG THỂ ĐĂNG NHẬP VÀO TÀI KHOẢN'],
  ])('says und for %s, a language without word lists', (_, body) => {
    expect(score({ source: 'email', body }).language).toBe('und');
  });

  // Names are written with those letters too: a capitalized word's letters do not count, nor an address's.
  it.each([
    ['en', 'Please call Paweł Nowak back today.'],
    ['de', 'Termin mit Jiří Dvořák am Montag bestätigt.'],
    ['fr', 'La facture de Ayşe Çelik est incorrecte.'],
    ['nl', 'Afspraak met Søren Håland maandag bevestigd.'],
    ['en', 'Paweł Nowak has forgotten the password again.'],
    ['de', 'Bitte an jiří.dvořák@firma.cz schicken.'],
    ['de', 'Bitte prüfen Sie die Rechnung von Herrn Łukasz Wałęsa, sie ist nicht richtig und wir warten noch.'],
  ])('keeps %s for a short text naming a person with such letters: %s', (language, body) => {
    expect(score({ source: 'email', body }).language).toBe(language);
  });

  it('says und for a text in another script', () => {
    expect(score({ source: 'email', body: 'Пожалуйста, проверьте отчёт сегодня вечером.' }).language).toBe('und');
  });

  it('tells en for the README demo signal (bin/local.ts prints it)', () => {
    expect(
      score({
        source: 'email',
        subject: 'Production outage',
        body: 'Our checkout is down for all customers since 09:10.',
      }).language,
    ).toBe('en');
  });

  it('says und when the text is too short or has no words', () => {
    expect(score({ source: 'email', body: 'ok' }).language).toBe('und');
    expect(score({ source: 'internal', body: 'db-3 98% 12:00' }).language).toBe('und');
  });
});

describe('sentiment', () => {
  it('is negative for an angry complaint, positive for thanks, neutral for a plain question', () => {
    expect(
      score({ source: 'email', body: 'This is unacceptable, the third time I write and it is still not working!' })
        .sentiment,
    ).toBe('negative');
    expect(score({ source: 'email', body: 'Thanks, that fixed it! Great support.' }).sentiment).toBe('positive');
    expect(score({ source: 'email', body: 'What time is the meeting tomorrow?' }).sentiment).toBe('neutral');
  });

  it("is neutral for spam whose loud words count as bulk, not as a writer's tone", () => {
    const spam = score({ source: 'email', subject: 'Congratulations', body: 'You have won!! Claim your prize!!' });
    expect(spam.reasons.map((r) => r.code)).toContain('BULK_OUTWEIGHS_ALARM');
    expect(spam.sentiment).toBe('neutral');
  });
});

describe('buildDecision with a policy', () => {
  it('answers by received_at plus the default minutes for the priority, and policy_version 0 without a policy', () => {
    for (const priority of ['critical', 'high', 'medium', 'low'] as const) {
      const d = buildDecision(ids, assessment({ priority, recommended_action: 'review' }));
      expect(d.respond_by).toBe(
        new Date(Date.parse(ids.received_at) + DEFAULT_RESPONSE_MINUTES[priority] * 60_000).toISOString(),
      );
      expect(d.policy_version).toBe(0);
      expect(d.model_version).toBe(MODEL_VERSION);
    }
    expect(DEFAULT_RESPONSE_MINUTES).toEqual({ critical: 60, high: 240, medium: 1440, low: 4320 });
  });

  it('uses the workspace response minutes and policy version when given', () => {
    const d = buildDecision(ids, assessment({ priority: 'high', recommended_action: 'respond_now' }), {
      policy_version: 3,
      response_minutes: { high: 30 },
    });
    expect(d.respond_by).toBe('2026-03-02T09:30:00.000Z');
    expect(d.policy_version).toBe(3);
  });

  it('has no respond_by for an archived signal', () => {
    expect(
      buildDecision(ids, assessment({ priority: 'low', recommended_action: 'archive', category: 'spam' })).respond_by,
    ).toBeNull();
  });
});
