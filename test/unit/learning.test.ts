// The pure learning and policy pieces: the keyed hash, the sketch (no text survives), the gate against the global
// engine, sender matching with subdomains, whole-word keywords, and the bounded per-container cache.
import { halfSipHash, halfSipKey } from '../../lambdas/domain/learning/half-siphash';
import {
  LEARNED_FIELDS,
  applyChanges,
  countSketch,
  emptyModel,
  labelCounts,
  learnedChanges,
  type WorkspaceModel,
} from '../../lambdas/domain/learning/model';
import { predictField } from '../../lambdas/domain/learning/predict';
import {
  TEXT_BUCKETS,
  decodeSketch,
  encodeSketch,
  senderParts,
  sketchSignal,
} from '../../lambdas/domain/learning/sketch';
import {
  BYTES_PER_COUNT,
  BYTES_PER_LABEL,
  BYTES_PER_POLICY_CHAR,
  MAX_WORKSPACES,
  WorkspaceCache,
  cachedWorkspace,
  weightOf,
} from '../../lambdas/domain/learning/workspace-cache';
import { indexModel } from '../../lambdas/domain/learning/prediction-index';
import { learnedConfidence } from '../../lambdas/domain/learning/confidence';
import { applyWorkspace } from '../../lambdas/domain/learning/workspace-layer';
import {
  EMPTY_POLICY,
  type StoredPolicy,
  compilePolicy,
  keywordPattern,
  listsParts,
} from '../../lambdas/domain/policy';
import type { WorkspaceState } from '../../lambdas/domain/ports';
import { scoreSignal } from '../../lambdas/domain/engine';

const key = halfSipKey(Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7]));
const AT = '2026-01-01T00:00:00Z';
/** An email of workspace `w` received at AT, with the engine's global assessment of it (before any workspace layer). */
const globallyScored = (text: { subject?: string; body?: string }) => {
  const signal = { workspace_id: 'w', source: 'email' as const, received_at: AT, ...text };
  return { signal, global: scoreSignal(signal, new Date(AT)) };
};
const otherKey = halfSipKey(Uint8Array.from([7, 6, 5, 4, 3, 2, 1, 0]));

it('computes HalfSipHash-2-4 as the reference vectors say', () => {
  const expected = [0x5b9f35a9, 0xb85a4727, 0x03a662fa, 0x04e7fe8a, 0x89466e2a, 0x69b6fac5, 0x23fc6358, 0xc563cf8b];
  expected.forEach((want, len) =>
    expect(
      halfSipHash(
        key,
        Uint8Array.from({ length: len }, (_, i) => i),
      ),
    ).toBe(want),
  );
});

describe('the sketch', () => {
  const signal = {
    subject: 'Refund for order 4411',
    body: 'Please refund my card payment',
    sender: 'Ann <ann@shop.example>',
  };

  it('holds bucket numbers only, round-trips through its stored form, and differs per workspace key', () => {
    const sketch = sketchSignal(key, signal);
    const stored = encodeSketch(sketch);
    expect(stored.length).toBe(1 + 2 * (sketch.t.length + 2));
    const text = Buffer.from(stored).toString('latin1').toLowerCase();
    for (const word of ['refund', 'order', 'card', 'ann', 'shop']) expect(text).not.toContain(word);
    expect(decodeSketch(stored)).toEqual(sketch);
    expect(sketchSignal(otherKey, signal).t).not.toEqual(sketch.t);
  });
});

describe('prediction', () => {
  const sketch = (text: string, sender?: string) => sketchSignal(key, { body: text, sender });

  it('learns nothing from nothing, and keeps the global answer for wording unlike anything taught', () => {
    const model = emptyModel();
    expect(predictField(model, 'category', sketch('card payment refund'))).toBeUndefined();
    const billing = labelCounts('category', 'card_refund');
    for (let i = 0; i < 3; i++) countSketch(billing, sketch(`please refund my card payment number ${i}`), 1);
    model.labels.push(billing);
    model.version = 3;
    expect(predictField(model, 'category', sketch('refund my card payment please'))?.label).toBe('card_refund');
    expect(
      predictField(model, 'category', sketch('the quarterly board meeting moved to thursday afternoon')),
    ).toBeUndefined();
  });

  it('follows a sender after a few corrections and says how many, and forgets a count taken back', () => {
    const model = { version: 4, labels: [labelCounts('queue', 'accounts_payable')] };
    const s = sketch('invoice attached', 'clerk@supplier.example');
    for (let i = 0; i < 4; i++) countSketch(model.labels[0], s, 1);
    const p = predictField(model, 'queue', sketch('invoice attached for March', 'clerk@supplier.example'));
    expect(p).toMatchObject({ label: 'accounts_payable', basis: 'sender', senderCount: 4 });
    // docs/partners.md, "Importing your history, and forgetting it": the same sender with other vocabulary is unlike
    // anything taught.
    expect(predictField(model, 'queue', sketch('something else entirely', 'clerk@supplier.example'))).toBeUndefined();
    for (let i = 0; i < 4; i++) countSketch(model.labels[0], s, -1);
    expect(model.labels[0]).toMatchObject({ docs: 0, total: 0 });
    expect(model.labels[0].text.size + model.labels[0].senders.size).toBe(0);
  });
});

describe('policy', () => {
  it('matches addresses exactly and domains with their subdomains, case-insensitively', () => {
    const list = compilePolicy({ ...EMPTY_POLICY, vip_senders: ['ceo@acme.com', '@corp.example'] }).vip;
    expect(listsParts(list, senderParts('CEO <Ceo@Acme.com>'))).toBe(true);
    expect(listsParts(list, senderParts('cfo@acme.com'))).toBe(false);
    expect(listsParts(list, senderParts('x@eu.corp.example'))).toBe(true);
    expect(listsParts(list, senderParts('x@notcorp.example'))).toBe(false);
  });

  it('reads the sender from its brackets, never from an address written as its display name', () => {
    const policy = compilePolicy({
      ...EMPTY_POLICY,
      vip_senders: ['ceo@acme.com'],
      blocked_senders: ['@spam.example'],
    });
    expect(listsParts(policy.vip, senderParts('ceo@acme.com <attacker@evil.example>'))).toBe(false);
    expect(listsParts(policy.blocked, senderParts('friend@good.example <bulk@spam.example>'))).toBe(true);
    for (const spoof of ['ceo@acme.com <>', 'ceo@acme.com <postmaster>', 'ceo@acme.com <x@evil.example'])
      expect(listsParts(policy.vip, senderParts(spoof))).toBe(false);
    // As the engine reads it for metadata.vip_senders: quotes around a bare address are not part of it.
    expect(listsParts(policy.vip, senderParts("'ceo@acme.com'"))).toBe(true);
    // An apostrophe inside an address is part of it, as the API's validation takes it: o'neil is not neil.
    const oneil = compilePolicy({ ...EMPTY_POLICY, blocked_senders: ["o'neil@acme.com"] });
    expect(listsParts(oneil.blocked, senderParts("Ann O'Neil <o'neil@acme.com>"))).toBe(true);
    expect(listsParts(oneil.blocked, senderParts("o'neil@acme.com"))).toBe(true);
    expect(listsParts(oneil.blocked, senderParts('neil@acme.com'))).toBe(false);
  });

  it('matches keywords as whole words only', () => {
    expect(keywordPattern('VAT return').test('our vat   return is late')).toBe(true);
    expect(keywordPattern('VAT').test('elevator')).toBe(false);
    expect(keywordPattern('c++').test('we use c++ daily')).toBe(true);
  });

  it('matches a keyword in the subject or in the body, never across the two', () => {
    const policy = compilePolicy({
      ...EMPTY_POLICY,
      keywords: [{ phrase: 'payment failed', weight: 40, category: 'payments' }],
    });
    const keywordsOf = (text: { subject?: string; body?: string }) => {
      const { signal, global } = globallyScored(text);
      return applyWorkspace(global, signal, policy, emptyModel(), undefined)
        .reasons.filter((r) => r.code === 'POLICY_KEYWORD')
        .map((r) => r.weight);
    };
    expect(keywordsOf({ subject: 'Question about your last payment', body: 'Failed to find the receipt' })).toEqual([]);
    expect(keywordsOf({ subject: 'Question', body: 'My payment failed twice' })).toEqual([40]);
    expect(keywordsOf({ subject: 'Payment failed', body: 'and the payment failed again' })).toEqual([40]);
  });

  it("adds the workspace's weights to the engine's clamped score, so the reasons still explain it", () => {
    // docs/decision-engine.md, "How a score is made": a newsletter whose engine reasons sum below -20 scores 0, and a VIP sender's
    // 20 points then lift it to 20, not to 20 + that sum.
    const { signal, global } = globallyScored({
      subject: 'Weekly newsletter: our latest deals',
      body: 'Unsubscribe here. View in browser. You are receiving this because you subscribed to our mailing list.',
    });
    const sum = (reasons: readonly { weight: number }[]) => reasons.reduce((t, r) => t + r.weight, 0);
    expect(20 + sum(global.reasons)).toBeLessThan(0);
    expect(global.score).toBe(0);
    const vip = compilePolicy({ ...EMPTY_POLICY, vip_senders: ['@news.example'] });
    const out = applyWorkspace(global, { ...signal, sender: 'deals@news.example' }, vip, emptyModel(), undefined);
    const added = out.reasons.filter((r) => r.code.startsWith('POLICY_'));
    expect(added.map((r) => r.code)).toEqual(['POLICY_VIP_SENDER']);
    expect(out.score).toBe(Math.min(100, Math.max(0, global.score + sum(added))));
    expect(out.score).toBe(20);
  });

  it('leaves the global assessment untouched for a fresh workspace', () => {
    const { signal, global } = globallyScored({ subject: 'Production outage' });
    const out = applyWorkspace(global, signal, compilePolicy(EMPTY_POLICY), emptyModel(), sketchSignal(key, signal));
    const { policy_version, ...rest } = out;
    expect(policy_version).toBe(0);
    expect(rest).toEqual(global);
  });
});

/** A loaded workspace with nothing learned and no policy. */
const emptyState = (): WorkspaceState => ({
  policy: EMPTY_POLICY,
  model: emptyModel(),
  sketchKey: '0001020304050607',
  loadCost: { requests: 1, bytes: 0 },
});

it('keeps at most MAX_WORKSPACES workspaces, shares one load between concurrent misses, and expires after the TTL', async () => {
  let loads = 0;
  let now = 0;
  const cache = new WorkspaceCache(
    async () => (loads++, emptyState()),
    30_000,
    () => now,
  );
  await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]);
  expect(loads).toBe(1);
  now = 29_000;
  await cache.get('a');
  expect(loads).toBe(1);
  now = 31_000;
  await cache.get('a');
  expect(loads).toBe(2);
  for (let i = 0; i < MAX_WORKSPACES + 50; i++) await cache.get(`w${i}`);
  expect(cache.size).toBe(MAX_WORKSPACES);
});

it('checks a workspace made due at its next request, even when the change came while a check was running', async () => {
  let reads = 0;
  let release!: () => void;
  const cache = new WorkspaceCache(
    async () => (reads++, emptyState()),
    30_000,
    () => 0,
    // A check that waits until released (a slow read), and finds nothing new.
    async () => {
      reads++;
      await new Promise<void>((r) => (release = r));
      return undefined;
    },
  );
  await cache.get('a');
  cache.checkSoon('a');
  const running = cache.get('a');
  expect(reads).toBe(2);
  cache.checkSoon('a'); // a relabel taken while that check runs
  const after = cache.get('a');
  release();
  await running;
  await new Promise((r) => setImmediate(r));
  release();
  await after;
  expect(reads).toBe(3);
  await cache.get('a');
  expect(reads).toBe(3);
});

it('bounds the cached workspaces by weight, and keeps a workspace heavier than the whole bound, alone', async () => {
  // These share one model per size; each workspace weighs what weightOf estimates for it.
  const modelOf = (labels: number): WorkspaceModel => {
    const model = emptyModel();
    for (let i = 0; i < labels; i++) {
      const counts = labelCounts('category', `c${i}`);
      for (let b = 0; b < TEXT_BUCKETS; b++) counts.text.set(b, 1);
      Object.assign(counts, { docs: 1, total: TEXT_BUCKETS });
      model.labels.push(counts);
    }
    return model;
  };
  const stateOf = (model: WorkspaceModel): WorkspaceState => ({
    policy: EMPTY_POLICY,
    model,
    sketchKey: '0001020304050607',
    loadCost: { requests: 1, bytes: 0 },
  });
  const light = modelOf(2);
  const bound = 16_000_000;
  const fit = Math.floor(bound / weightOf(stateOf(light)));
  expect(fit).toBeGreaterThan(2);
  const heavy = modelOf(Math.ceil(bound / (BYTES_PER_COUNT * TEXT_BUCKETS)));
  expect(weightOf(stateOf(heavy))).toBeGreaterThan(bound);
  const cache = new WorkspaceCache(
    async (id) => stateOf(id === 'heavy' ? heavy : light),
    30_000,
    () => 0,
    undefined,
    bound,
  );
  for (let i = 0; i <= fit; i++) await cache.get(`w${i}`);
  expect(cache.size).toBe(fit);
  expect(cache.weight).toBe(fit * weightOf(stateOf(light)));
  expect(cache.peek('w0')).toBeUndefined();
  expect(cache.peek('w1')).toBeDefined();
  await cache.get('heavy');
  expect(cache.size).toBe(1);
  expect(cache.peek('heavy')?.state.model).toBe(heavy);
});

it('weighs a workspace by an estimate of its bytes: its counts, its labels, its index as a load builds it, its policy', () => {
  const model = emptyModel();
  for (let i = 0; i < 30; i++)
    applyChanges(
      model,
      sketchSignal(key, {
        body: `parcel ${i} held at customs, invoice ${i * 7} attached`,
        sender: `ops${i}@c.example`,
      }),
      learnedChanges({}, { category: `c${i % 3}`, priority: 'high' }),
    );
  const counts = model.labels.reduce((sum, l) => sum + l.text.size + l.senders.size + l.domains.size, 0);
  const built = indexModel({ version: model.version, labels: model.labels });
  let indexBytes = 0;
  for (const field of LEARNED_FIELDS)
    for (const kind of ['text', 'senders', 'domains'] as const) indexBytes += built.fields[field][kind].bytes;
  const state = (policy: StoredPolicy): WorkspaceState => ({
    policy,
    model,
    sketchKey: '0001020304050607',
    loadCost: { requests: 1, bytes: 0 },
  });
  const bare = weightOf(state(EMPTY_POLICY));
  expect(bare).toBeGreaterThanOrEqual(BYTES_PER_COUNT * counts + 4 * BYTES_PER_LABEL + indexBytes);
  const keywords = Array.from({ length: 50 }, (_, i) => ({ phrase: `held at customs ${i}`, weight: 5 }));
  const policy: StoredPolicy = { version: 2, updated_at: null, keywords };
  expect(weightOf(state(policy)) - bare).toBe(
    BYTES_PER_POLICY_CHAR * (JSON.stringify(policy).length - JSON.stringify(EMPTY_POLICY).length),
  );
});

it('moves a decision from its old labels to its new ones, counting it once (replacement)', () => {
  const s = sketchSignal(key, { body: 'where is my new card', sender: 'a@b.example' });
  const model = emptyModel();
  applyChanges(model, s, learnedChanges({}, { category: 'card_arrival', priority: 'high' }));
  applyChanges(model, s, learnedChanges({ category: 'card_arrival', priority: 'high' }, { category: 'card_delivery' }));
  const docs = Object.fromEntries(model.labels.map((l) => [`${l.field}:${l.label}`, l.docs]));
  expect(docs).toEqual({ 'category:card_arrival': 0, 'priority:high': 0, 'category:card_delivery': 1 });
  // The examples held, as a container that loads these counts states it (not the two changes this one took).
  expect(model.version).toBe(1);
  expect(predictField(model, 'category', s)?.label).toBe('card_delivery');
  expect(predictField(model, 'priority', s)).toBeUndefined();
});

describe('confidence of learned decisions', () => {
  const { signal, global } = globallyScored({ body: 'please refund my card payment' });
  const policy = compilePolicy(EMPTY_POLICY);
  const taught = (times: number, field: 'category' | 'priority' = 'category', label = 'card_refund') => {
    const model = emptyModel();
    for (let i = 0; i < times; i++)
      applyChanges(
        model,
        sketchSignal(key, { body: `please refund my card payment ${i}` }),
        learnedChanges({}, { [field]: label }),
      );
    return model;
  };

  it('follows the learned prediction, low when the teaching is thin and higher as it grows', () => {
    const once = applyWorkspace(global, signal, policy, taught(1), sketchSignal(key, signal));
    const often = applyWorkspace(global, signal, policy, taught(40), sketchSignal(key, signal));
    expect(once.category).toBe('card_refund');
    expect(once.confidence).toBeLessThanOrEqual(0.5);
    expect(often.category).toBe('card_refund');
    expect(often.confidence).toBeGreaterThan(once.confidence);
    expect(often.confidence).toBeLessThanOrEqual(0.99);
  });

  it('keeps the global confidence when nothing learned applies, and a priority taught once is not confident', () => {
    const { signal: unlike, global: g } = globallyScored({
      body: 'the quarterly board meeting moved to thursday afternoon',
    });
    expect(applyWorkspace(g, unlike, policy, taught(5), sketchSignal(key, unlike)).confidence).toBe(g.confidence);
    const byPriority = applyWorkspace(
      global,
      signal,
      policy,
      taught(1, 'priority', 'critical'),
      sketchSignal(key, signal),
    );
    expect(byPriority.priority).toBe('critical');
    expect(byPriority.confidence).toBeLessThanOrEqual(Math.min(global.confidence, 0.5));
  });
});

describe('sketch format 2 (character 4-grams)', () => {
  const bytes = Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7]);
  const one = { ...halfSipKey(bytes), format: 1 as const };
  const two = { ...halfSipKey(bytes), format: 2 as const };
  const teach = (k: typeof one | typeof two) => {
    const model = emptyModel();
    const taught: [string, string][] = [
      ['my card payment was declined at the shop', 'declined_card_payment'],
      ['why was my card payment declined', 'declined_card_payment'],
      ['i want a refund for this purchase', 'request_refund'],
      ['how do i get a refund for an item', 'request_refund'],
      ['my transfer has not arrived yet', 'transfer_not_received'],
      ['the transfer i sent is not showing', 'transfer_not_received'],
    ];
    for (const [body, category] of taught)
      applyChanges(model, sketchSignal(k, { body }), learnedChanges({}, { category }));
    return model;
  };

  it('decides a misspelt query that format 1 cannot, and still keeps unrelated text global', () => {
    const typo = { body: 'transfre arived' };
    expect(predictField(teach(one), 'category', sketchSignal(one, typo))).toBeUndefined();
    expect(predictField(teach(two), 'category', sketchSignal(two, typo))?.label).toBe('transfer_not_received');
    const unlike = { body: 'the quarterly board meeting moved to thursday afternoon' };
    expect(predictField(teach(two), 'category', sketchSignal(two, unlike))).toBeUndefined();
  });

  it('calibrates confidence per format: format 2 shares are surer, so the same share is worth less', () => {
    const p = { probability: 0.95, docs: 10 };
    expect(learnedConfidence({ ...p, format: 2 })).toBeLessThan(learnedConfidence(p));
    expect(learnedConfidence({ ...p, format: 1 })).toBe(learnedConfidence(p));
  });

  it('keeps a workspace made before format 2 in format 1 (its stored key has no format prefix)', () => {
    const state = (sketchKey: string) =>
      ({ policy: EMPTY_POLICY, model: emptyModel(), sketchKey, loadCost: { requests: 0, bytes: 0 } }) as never;
    expect(cachedWorkspace(state('0001020304050607')).key).toEqual(one);
    expect(cachedWorkspace(state('2.0001020304050607')).key).toEqual(two);
  });
});
