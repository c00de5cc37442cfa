// Cloud-assembly folders for a CDK test file: each a fresh temporary folder, all removed after the file's tests.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** Registers their removal in afterAll; answers a function that makes one more. */
export function temporaryOutdirs(label: string): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sas-cdk-${label}-`));
    dirs.push(dir);
    return dir;
  };
}
