// Text a person reads as the same is the same to keywords, sender lists and learning, whichever Unicode form it was
// sent in (docs/partners.md, "Workspace policy"; docs/learning.md): "Kündigung" composed, or decomposed (u + U+0308)
// as macOS and some mail clients send it.
import { composed } from '../../lambdas/domain/composed-text';
import { scoreSignal } from '../../lambdas/domain/engine';
import { keywordMatcher } from '../../lambdas/domain/keyword-matcher';
import { sketchKeyOf, sketchSignal } from '../../lambdas/domain/learning/sketch';
import { compilePolicy, listsParts } from '../../lambdas/domain/policy';
import { senderParts } from '../../lambdas/domain/learning/sketch';

const NFC = 'Kündigung zum Monatsende, bitte bestätigen Sie die Löschung';
const NFD = NFC.normalize('NFD');
const MIXED_MARKS = '\u0301\u0308\u0327';

it('reads a decomposed text as the composed one: the same learning sketch, in both sketch formats', () => {
  expect(NFD).not.toBe(NFC);
  for (const stored of ['00112233445566ff', '2.00112233445566ff']) {
    const key = sketchKeyOf(stored);
    expect(sketchSignal(key, { subject: 'Vertrag', body: NFD })).toEqual(
      sketchSignal(key, { subject: 'Vertrag', body: NFC }),
    );
  }
});

it('reads a decomposed sender as the composed one, for learning and for the sender lists', () => {
  const composedSender = 'Jürgen <jürgen@bäckerei.example>';
  const decomposed = composedSender.normalize('NFD');
  expect(senderParts(decomposed)).toEqual(senderParts(composedSender));
  const policy = compilePolicy({
    version: 1,
    updated_at: '2026-11-30T00:00:00Z',
    vip_senders: ['jürgen@bäckerei.example'.normalize('NFD')],
    blocked_senders: ['@bäckerei.example'],
  });
  expect(listsParts(policy.vip, senderParts(composedSender))).toBe(true);
  expect(listsParts(policy.blocked, senderParts(decomposed))).toBe(true);
});

it('cuts a run of more than 30 combining marks to 30, and still finds the keywords around it', () => {
  const run = 'Z' + MIXED_MARKS.repeat(20_000);
  const text = composed(`outage ${run} Kündigung`);
  // 30 marks at most (composing may fold one into its letter: Z and U+0301 are Ź).
  expect([...text.matchAll(/\p{M}/gu)].length).toBeLessThanOrEqual(30);
  expect(text.endsWith(' Kündigung')).toBe(true);
  const matcher = keywordMatcher([{ phrase: 'outage' }, { phrase: 'Kündigung' }]);
  expect(matcher.match(`outage ${run} ${'Kündigung'.normalize('NFD')}`).map((k) => k.phrase)).toEqual([
    'outage',
    'Kündigung',
  ]);
});

it('reads metadata.vip_senders as it reads the sender: a decomposed entry lists the composed sender', () => {
  const signal = {
    workspace_id: 'ws_a',
    source: 'email' as const,
    received_at: '2026-11-30T09:00:00Z',
    subject: 'Vertrag',
    body: 'Bitte rufen Sie mich an.',
    sender: 'jürgen@bäckerei.example',
  };
  const listed = scoreSignal(
    { ...signal, metadata: { vip_senders: ['jürgen@bäckerei.example'.normalize('NFD')] } },
    new Date('2026-11-30T09:00:00Z'),
  );
  expect(listed.reasons.map((r) => r.code)).toContain('VIP_SENDER');
});
