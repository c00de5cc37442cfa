// `npm start` when PORT is taken by another program: it stops (status 1, its embedded database with it) with a message
// that says which port is in use and what to do, as it does for LOCAL_DYNAMODB_PORT, not Node's bare
// "listen EADDRINUSE: address already in use 127.0.0.1:<port>".
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { TSX_NODE_ARGS } from '../support/tsx';

jest.setTimeout(180_000);

const repo = resolve(__dirname, '..', '..');

it('says which port is in use and how to choose another', async () => {
  const holder = createServer();
  await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
  const { port } = holder.address() as AddressInfo;
  try {
    const run = promisify(execFile)(process.execPath, [...TSX_NODE_ARGS, 'bin/local.ts'], {
      cwd: repo,
      env: { ...process.env, PORT: String(port), LOCAL_DYNAMODB_PORT: '0', LOCAL_DATA_DIR: ':memory:' },
      timeout: 150_000,
    });
    const err = (await run.then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string };
    expect(err?.code).toBe(1);
    expect(err.stderr).toContain(`port ${port} is already in use`);
    expect(err.stderr).toMatch(/PORT/);
    expect(err.stderr).not.toMatch(/EADDRINUSE/);
  } finally {
    holder.close();
  }
});
