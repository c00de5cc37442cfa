// `npm run eval` prints, beside every source's ECE, what a calibrated confidence shows on as many decisions by chance
// (bin/eval/report.ts, eceByChance): the owner reads a worst-source ECE row against it, so it must be what the ECE of
// a calibrated confidence really is on that many decisions, and the same on every run.
import { TEN_BINS, eceByChance, reliabilityTable } from '../../bin/eval/report';
import { mulberry32 } from '../../bin/seeded-random';

/** n decisions stating confidences spread over 0.3..0.9, each right with exactly the probability it states. */
function calibrated(n: number, seed: number) {
  const random = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const confidence = 0.3 + 0.6 * random();
    return { confidence, right: random() < confidence };
  });
}

describe('ECE a calibrated confidence shows by chance', () => {
  test('is large on a few dozen decisions and small on thousands, as a calibrated sample of each size shows', () => {
    const few = calibrated(20, 1);
    const many = calibrated(5000, 2);
    const fewChance = eceByChance(few, TEN_BINS);
    const manyChance = eceByChance(many, TEN_BINS);
    expect(fewChance.mean).toBeGreaterThan(0.08);
    expect(manyChance.p95).toBeLessThan(0.03);
    // A calibrated sample's own ECE lies within what chance gives it.
    expect(reliabilityTable(many, TEN_BINS).ece).toBeLessThanOrEqual(manyChance.p95);
    expect(fewChance.p95).toBeGreaterThan(fewChance.mean);
  });

  test('flags a confidence that is miscalibrated beyond its size', () => {
    const overconfident = calibrated(2000, 3).map((j) => ({ ...j, confidence: Math.min(0.99, j.confidence + 0.2) }));
    expect(reliabilityTable(overconfident, TEN_BINS).ece).toBeGreaterThan(eceByChance(overconfident, TEN_BINS).p95);
  });

  test('is the same on every run', () => {
    const judged = calibrated(60, 4);
    expect(eceByChance(judged, TEN_BINS)).toEqual(eceByChance(judged, TEN_BINS));
  });
});
