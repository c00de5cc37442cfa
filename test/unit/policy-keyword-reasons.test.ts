// A decision names at most 10 workspace keywords; the rest add one reason with their summed weight (docs/partners.md,
// "Workspace policy"). Unbounded, a policy of 200 keywords of 100 characters, all matching one text, made a decision
// of 57 KB: 100 of them in a batch's answer or a list page were past Lambda's 6 MB response limit (a 5xx on AWS, after
// the batch's decisions were stored).
import { scoreSignal } from '../../lambdas/domain/engine';
import { halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import { emptyModel } from '../../lambdas/domain/learning/model';
import { sketchSignal } from '../../lambdas/domain/learning/sketch';
import { applyWorkspace } from '../../lambdas/domain/learning/workspace-layer';
import { compilePolicy } from '../../lambdas/domain/policy';
import type { Signal } from '../../lambdas/domain/signal';

const key = { ...halfSipKey(Uint8Array.from([2, 7, 1, 8, 2, 8, 1, 8])), format: 2 as const };
const now = new Date('2026-12-01T10:00:00Z');

/** 215 words of 5 characters; phrase i is the 16 words from word i (95 characters), each matching the body once. */
const words = Array.from({ length: 215 }, (_, i) => `w${String(i).padStart(3, '0')}z`);
const body = words.join(' ');
const phrase = (i: number) => words.slice(i, i + 16).join(' ');

function decide(keywords: { phrase: string; weight: number; category?: string }[]) {
  const signal: Signal = {
    workspace_id: 'ws_k',
    source: 'support_message',
    subject: 'Question',
    body,
    received_at: now.toISOString(),
  };
  const policy = compilePolicy({ keywords, version: 1, updated_at: null });
  return applyWorkspace(scoreSignal(signal, now), signal, policy, emptyModel(), sketchSignal(key, signal));
}

describe('workspace keywords in the reasons', () => {
  it('names the 10 heaviest matching keywords and sums the rest into one reason, weights and score kept', () => {
    const keywords = Array.from({ length: 40 }, (_, i) => ({ phrase: phrase(i), weight: (i % 5) - 2 || 1 }));
    const all = keywords.reduce((sum, k) => sum + k.weight, 0);
    const out = decide(keywords);
    const mine = out.reasons.filter((r) => r.code === 'POLICY_KEYWORD');
    expect(mine).toHaveLength(11);
    expect(mine.reduce((sum, r) => sum + r.weight, 0)).toBe(all);
    expect(mine.filter((r) => r.message.startsWith('mentions 30 more workspace keywords'))).toHaveLength(1);
    // Named ones are the heaviest: no summed-away keyword outweighs a named one.
    const named = mine.filter((r) => r.message.includes('(workspace keyword)')).map((r) => Math.abs(r.weight));
    expect(Math.min(...named)).toBe(2);
  });

  it('keeps the largest decision a policy can make far below what 100 of them may weigh in one answer', () => {
    // 200 distinct keywords of 95 characters, every one matching: about the worst the contract allows.
    const keywords = Array.from({ length: 200 }, (_, i) => ({ phrase: phrase(i), weight: 50 - (i % 100) }));
    const decision = decide(keywords);
    // A batch answer or list page of 100, its JSON escaped again as the body of Lambda's result.
    const payloadBytes = 100 * Buffer.byteLength(JSON.stringify(JSON.stringify(decision)));
    expect(payloadBytes).toBeLessThan(6_291_556 / 4);
  });
});
