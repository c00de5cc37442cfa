// Legal wording in the engine: a customer naming their counsel is a threat (docs/decision-engine.md, LEGAL_THREAT).
// Counsel named in a benign sentence ("Our attorney reviewed the terms") is read as a threat too: a reading that
// told them apart by what counsel will do lost most ordinary threats, so the list below guards them.
import { reasonCodes, scorerAt } from '../support/scoring';

const score = scorerAt(new Date('2026-03-02T10:00:00Z'), {
  workspace_id: 'ws_legal',
  received_at: '2026-03-02T09:59:00Z',
});
const legalCodes = (body: string) =>
  reasonCodes(score({ source: 'email', sender: 'ann@customer.example', subject: 'Contract', body })).filter((c) =>
    c.startsWith('LEGAL_'),
  );

it('reads ordinary threats naming counsel as LEGAL_THREAT', () => {
  for (const body of [
    'Our lawyer will be in touch regarding the breach of contract.',
    'My attorneys will contact you tomorrow.',
    'I have instructed my solicitor about your invoice.',
    'I am forwarding this to my lawyer.',
    'You will hear from our legal team.',
    'Our lawyers will file a lawsuit.',
    'You will be hearing from my lawyer.',
    'I have contacted my lawyer.',
    'I have spoken to my lawyer.',
    'I have consulted my attorney.',
    "I'm getting my lawyer involved.",
    'My legal counsel will contact you.',
    'Expect a letter from my lawyer.',
    "You'll be hearing from my solicitor.",
    "I've spoken with my solicitor.",
    'My solicitor is drafting a letter to you.',
  ])
    expect(legalCodes(body)).toContain('LEGAL_THREAT');
});
