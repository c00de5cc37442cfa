import path from 'node:path';

/** Node.js arguments that run a TypeScript entry as `npm start` and `npm run admin` do (see package.json). */
export const TSX_NODE_ARGS = ['--import', path.resolve(__dirname, '../../bin/require-esm-only.mjs'), '--import', 'tsx'];
