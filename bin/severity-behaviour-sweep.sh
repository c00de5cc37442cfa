#!/bin/bash
# Which alert model options keep the behaviour tests (docs/decision-engine-severity.md, "Severity across sources: a
# pooled alert model with words"): for each option, fits the alert model on every source with it
# (bin/train-severity-model.ts --alert) and runs the unit tests that score `internal` signals; prints the option and the
# tests that failed. It rewrites lambdas/domain/engine/severity-model.json: run `npx tsx bin/train-severity-model.ts`
# after it.
#   bin/severity-behaviour-sweep.sh '{"l2":240,"perLogit":40,"max":40}' ...
set -u
cd "$(dirname "$0")/.."
for o in "$@"; do
  npx tsx bin/train-severity-model.ts --alert "$o" >/dev/null
  out=$(npx jest -c jest.unit.config.cjs test/unit/engine-alerts.test.ts test/unit/engine-invariants.test.ts \
    test/unit/scorer-decisions.test.ts test/unit/scorer-reasons.test.ts test/unit/scorer-wording.test.ts \
    test/unit/scorer-sender-and-metadata.test.ts test/unit/scorer-lexicon.test.ts test/unit/decision-v2.test.ts \
    test/unit/confidence-bands.test.ts 2>&1)
  echo "$o :: $(echo "$out" | grep '^Tests:') :: $(echo "$out" | grep -E '^  ●.*›' | tr -s ' ' | tr '\n' '|')"
done
