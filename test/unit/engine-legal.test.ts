// Legal wording in the engine: counsel named alone is legal language; a threat says what counsel will do
// (docs/decision-engine.md, LEGAL_THREAT and LEGAL_LANGUAGE).
import { reasonCodes, scorerAt } from '../support/scoring';

const score = scorerAt(new Date('2026-03-02T10:00:00Z'), {
  workspace_id: 'ws_legal',
  received_at: '2026-03-02T09:59:00Z',
});
const legalCodes = (body: string) =>
  reasonCodes(score({ source: 'email', sender: 'ann@customer.example', subject: 'Contract', body })).filter((c) =>
    c.startsWith('LEGAL_'),
  );

it('reads counsel named alone as legal language, not as a threat', () => {
  for (const body of [
    'Our attorney reviewed the terms and we are ready to sign.',
    'My lawyer has read the draft; two small edits attached.',
  ])
    expect(legalCodes(body)).toEqual(['LEGAL_LANGUAGE']);
});

it('reads what counsel will do, or being handed to counsel, as a threat', () => {
  for (const body of [
    'Our lawyer will be in touch regarding the breach of contract.',
    'My attorneys will contact you tomorrow.',
    'I have instructed my solicitor about your invoice.',
    'I am forwarding this to my lawyer.',
    'You will hear from our legal team.',
    'Our lawyers will file a lawsuit.',
  ])
    expect(legalCodes(body)).toContain('LEGAL_THREAT');
});
