// Decision and key ids: ULIDs whose random part comes from the CSPRNG; none may repeat.
import { DECISION_ID_PATTERN, newDecisionId, ulid } from '../../lambdas/domain/ids';

it('gives distinct, well-formed, time-ordered ids', () => {
  const now = Date.UTC(2026, 10, 26, 12);
  const ids = Array.from({ length: 5_000 }, (_, i) => newDecisionId(now + Math.floor(i / 1_000)));
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.every((id) => DECISION_ID_PATTERN.test(id))).toBe(true);
  // The first 10 characters are the time: later milliseconds sort later.
  expect(ids[4_999].slice(4, 14) > ids[0].slice(4, 14)).toBe(true);
  // The random part is not a pattern: its 16 characters use the whole alphabet over a few thousand ids.
  expect(new Set(ids.flatMap((id) => [...id.slice(14)])).size).toBe(32);
  expect(ulid(0).slice(0, 10)).toBe('0000000000');
});
