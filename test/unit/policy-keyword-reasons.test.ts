// Every matching workspace keyword adds its POLICY_KEYWORD reason with its weight, as the contract says; only the 10
// heaviest, and the one that set the category, quote their phrase (docs/partners.md, "Workspace policy"). Quoting
// every one, a policy of 200 keywords of 100 characters, all matching one text, made a decision of 57 KB: 100 of them
// in a batch's answer or a list page were past Lambda's 6 MB response limit (a 5xx on AWS, after the batch's
// decisions were stored).
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
  it('gives every matching keyword its reason and weight, quoting the 10 heaviest and the one that set the category', () => {
    const keywords = Array.from({ length: 40 }, (_, i) => ({
      phrase: phrase(i),
      // The last one light, and the only one with a category.
      ...(i === 39 ? { weight: 1, category: 'billing' } : { weight: (i % 5) - 2 || 1 }),
    }));
    const out = decide(keywords);
    const mine = out.reasons.filter((r) => r.code === 'POLICY_KEYWORD');
    expect(mine.map((r) => r.weight).sort()).toEqual(keywords.map((k) => k.weight).sort());
    const quoted = mine.filter((r) => r.message.includes('(workspace keyword)'));
    expect(quoted).toHaveLength(11);
    // The heaviest are quoted (weight 2 or -2 here), and so is the light keyword that set the category.
    expect(quoted.filter((r) => Math.abs(r.weight) === 2)).toHaveLength(10);
    expect(quoted).toContainEqual(expect.objectContaining({ message: `mentions "${phrase(39)}" (workspace keyword)` }));
    expect(out.category).toBe('billing');
    expect(mine.filter((r) => r.message === 'mentions a workspace keyword')).toHaveLength(29);
  });

  it('keeps the largest decision a policy can make well below what 100 of them may weigh in one answer', () => {
    // 200 distinct keywords of 95 characters, every one matching: about the worst the contract allows.
    const keywords = Array.from({ length: 200 }, (_, i) => ({ phrase: phrase(i), weight: 50 - (i % 100) }));
    const decision = decide(keywords);
    // A batch answer or list page of 100, its JSON escaped again as the body of Lambda's result.
    const payloadBytes = 100 * Buffer.byteLength(JSON.stringify(JSON.stringify(decision)));
    expect(payloadBytes).toBeLessThan(6_291_556 / 2);
  });
});
