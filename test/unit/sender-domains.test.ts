// A sender's domain is one domain however it is spelled, Unicode (münchen.de) or its ASCII form (xn--mnchen-3ya.de),
// for the policy's sender lists, metadata.vip_senders and what a workspace learns (docs/partners.md, "Workspace
// policy").
import { scoreSignal } from '../../lambdas/domain/engine';
import { senderParts, sketchKeyOf, sketchSignal } from '../../lambdas/domain/learning/sketch';
import { EMPTY_POLICY, compilePolicy, listsParts } from '../../lambdas/domain/policy';

it('lists a sender in a Unicode domain by its ASCII form, and the reverse', () => {
  const policy = compilePolicy({
    ...EMPTY_POLICY,
    vip_senders: ['@münchen.de', 'ann@bücher.example'],
    blocked_senders: ['@xn--bcher-kva.example', 'bob@XN--MNCHEN-3YA.DE'],
  });
  expect(listsParts(policy.vip, senderParts('Info <info@xn--mnchen-3ya.de>'))).toBe(true);
  expect(listsParts(policy.vip, senderParts('info@stadt.MÜNCHEN.de'))).toBe(true);
  expect(listsParts(policy.vip, senderParts('ann@xn--bcher-kva.example'))).toBe(true);
  expect(listsParts(policy.vip, senderParts('eve@xn--bcher-kva.example'))).toBe(false);
  expect(listsParts(policy.blocked, senderParts('eve@bücher.example'))).toBe(true);
  expect(listsParts(policy.blocked, senderParts('Bob <bob@münchen.de>'))).toBe(true);
  expect(listsParts(policy.blocked, senderParts('bob@munchen.de'))).toBe(false);
  // A trailing full stop, ASCII or ideographic (U+3002), is no part of the domain.
  expect(listsParts(policy.vip, senderParts('ann@bücher.example.'))).toBe(true);
  expect(listsParts(policy.vip, senderParts('ann@bücher.example\u3002'))).toBe(true);
});

it('reads metadata.vip_senders the same way', () => {
  const vipFor = (sender: string, listed: string) =>
    scoreSignal(
      {
        workspace_id: 'ws_a',
        source: 'email',
        received_at: '2026-11-30T09:00:00Z',
        subject: 'Vertrag',
        sender,
        metadata: { vip_senders: [listed] },
      },
      new Date('2026-11-30T09:00:00Z'),
    ).reasons.some((r) => r.code === 'VIP_SENDER');
  expect(vipFor('ann@xn--mnchen-3ya.de', '@münchen.de')).toBe(true);
  expect(vipFor('ann@münchen.de', 'xn--mnchen-3ya.de')).toBe(true);
  expect(vipFor('Ann <ann@münchen.de>', 'ann@xn--mnchen-3ya.de')).toBe(true);
  expect(vipFor('ann@münchen.de', '@munchen.de')).toBe(false);
});

it('learns one sender for both spellings, and reads an ASCII sender as before', () => {
  const key = sketchKeyOf('00112233445566ff');
  const sketchOf = (sender: string) => sketchSignal(key, { subject: 'Rechnung', body: 'Bitte zahlen', sender });
  expect(sketchOf('ann@münchen.de')).toEqual(sketchOf('Ann <ann@xn--mnchen-3ya.de>'));
  // Only a domain holding other than ASCII is rewritten: an ASCII one stays as sent (domainToASCII would turn the
  // domain 1.2.3 into the IPv4 address 1.2.0.3).
  expect(senderParts('Ann <Ann@Acme.COM>')).toEqual({ address: 'ann@acme.com', domain: 'acme.com' });
  expect(senderParts('ann@1.2.3')).toEqual({ address: 'ann@1.2.3', domain: '1.2.3' });
});
