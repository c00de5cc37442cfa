// Property tests run with a fixed seed, so a CI run is reproducible: the same inputs on every machine, every time.
// FC_SEED=<number> replays another seed; FC_SEED=random explores (a failure prints the seed that replays it).
import fc from 'fast-check';

const raw = process.env.FC_SEED;
if (raw !== 'random') fc.configureGlobal({ seed: raw === undefined || raw === '' ? 20261125 : Number(raw) });
