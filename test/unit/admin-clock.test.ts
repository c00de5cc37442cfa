// The admin CLI's check of this machine's clock against an AWS answer's Date header (whole seconds).
import { clockProblem } from '../../lib/admin/actor';

describe("the admin CLI's clock check", () => {
  const at = Date.UTC(2026, 11, 1, 12, 0, 0);
  const date = (offsetMs: number) => new Date(at + offsetMs).toUTCString();

  it('passes a clock within 2 s of the answer, allowing for the header counting whole seconds', () => {
    for (const sentAfterMs of [0, 500, 999, 2_999]) {
      expect(clockProblem(date(0), at + sentAfterMs, at + sentAfterMs)).toBeUndefined();
    }
    expect(clockProblem(date(2_000), at, at)).toBeUndefined();
    expect(clockProblem(undefined, at, at)).toBeUndefined(); // no header: nothing to compare
  });

  it('never takes a slow answer for a skewed clock', () => {
    // Sent at 12:00:00.9, stamped 12:00:00 by a clock in step, read 10 s later.
    expect(clockProblem(date(0), at + 900, at + 10_900)).toBeUndefined();
  });

  it('names how far behind or ahead a clock is beyond that', () => {
    expect(clockProblem(date(3_000), at, at)).toMatch(/at least 3 s behind AWS's/);
    expect(clockProblem(date(-60_000), at, at)).toMatch(/at least 59 s ahead of AWS's/);
    expect(clockProblem(date(0), at + 3_001, at + 3_001)).toMatch(/ahead of AWS's/);
  });
});
