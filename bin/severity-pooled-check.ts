// Concluded experiment (docs/decision-engine-severity.md, "Severity across sources"): a severity model learned from
// every development alert source or tracker but the one held out, measured on it. Not shipped: see the docs for why.
//   npx tsx bin/severity-pooled-check.ts alert|bug [l2] [epochs] [words|nowords] [sourcePower] [perLogit] [max] [bias]
// The score is approximated as the rules' score plus the model's clamped points (the engine adds them the same way).
import './lexicon-index-check';
import { cachedRows } from './severity-features-cache';
import { groupsOf, type SeverityKind } from './severity-data';
import { fitRows, logitOf, type SevFitOptions } from './severity-fit';
import { spearman } from './eval/report';

const [
  kind = 'alert',
  l2 = '30',
  epochs = '200',
  words = 'words',
  power = '1',
  perLogit = '20',
  max = '40',
  bias = 'bias',
] = process.argv.slice(2);
const o: SevFitOptions = {
  l2: Number(l2),
  epochs: Number(epochs),
  step: 0.3,
  useWords: words !== 'nowords',
  sourcePower: Number(power),
  sourceBias: bias === 'bias',
};
const clamp = (x: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, x));
const rows = cachedRows().filter((r) => r.kind === (kind as SeverityKind));
let worst = 1;
let sum = 0;
let n = 0;
for (const g of groupsOf(rows)) {
  const test = rows.filter((r) => r.group === g);
  if (new Set(test.map((r) => r.level)).size < 2) continue;
  const m = fitRows(
    rows.filter((r) => r.group !== g),
    o,
  );
  const level = test.map((r) => r.level);
  const score = test.map((r) =>
    clamp(r.raw + clamp(Math.round(logitOf(m, r, o.useWords) * Number(perLogit)), -Number(max), Number(max)), 0, 100),
  );
  const rules = spearman(
    test.map((r) => clamp(r.raw, 0, 100)),
    level,
  );
  const rho = spearman(score, level);
  worst = Math.min(worst, rho);
  sum += rho;
  n++;
  console.log(
    `${g.padEnd(40)} n ${String(test.length).padStart(5)}  rules alone ${rules.toFixed(3)}  with the model ${rho.toFixed(3)}`,
  );
}
console.log(
  `worst ${worst.toFixed(3)}, mean ${(sum / n).toFixed(3)} (${JSON.stringify(o)}, ${perLogit} points per unit, at most ${max})`,
);
