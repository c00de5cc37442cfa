// Command-line options: which sections run, and how long each measures.
import { parseArgs } from 'node:util';

const SECTIONS = [
  'scorer',
  'ddb',
  'batch',
  'inprocess',
  'access',
  'http',
  'cost',
  'workspace',
  'worst-case',
  'bundles',
] as const;
export type Section = (typeof SECTIONS)[number];

export function options() {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      skip: { type: 'string' },
      digest: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(
      'usage: npm run bench -- [--json | --markdown] [--quick] [--only=SECTIONS] [--skip=SECTIONS]   (sections: ' +
        SECTIONS.join(', ') +
        ')',
    );
    console.log(
      '       npm run bench -- --digest   one SHA-256 over the decisions of a fixed set of signals (compare across commits)',
    );
    process.exit(0);
  }
  const list = (raw: string | undefined) => {
    const names = (raw ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const n of names)
      if (!(SECTIONS as readonly string[]).includes(n))
        fail(`unknown section "${n}" (sections: ${SECTIONS.join(', ')})`);
    return names as Section[];
  };
  const only = list(values.only);
  const skip = list(values.skip);
  const sections = new Set<Section>(
    SECTIONS.filter((s) => (only.length === 0 || only.includes(s)) && !skip.includes(s)),
  );
  const quick = values.quick;
  return {
    json: values.json,
    markdown: values.markdown,
    digest: values.digest,
    quick,
    sections,
    inprocessIterations: quick ? 500 : 2_000,
    accessIterations: quick ? 300 : 1_000,
    /** Corrections per banking77 category the workspace section teaches (the whole teaching pool is about 104). */
    workspacePerCategory: quick ? 10 : 1_000,
    httpSeconds: quick ? 3 : 5,
    httpRounds: quick ? 1 : 2,
    httpConnections: 16,
    initRuns: quick ? 7 : 15,
  };
}

export type Options = ReturnType<typeof options>;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}
