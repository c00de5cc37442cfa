import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function libSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return libSources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('the Node.js version the tests run on', () => {
  it(".nvmrc names the Lambdas' runtime major, which .ci/run installs and engines allows", () => {
    const nvmrc = readFileSync(path.join(root, '.nvmrc'), 'utf8').trim().replace(/^v/, '');
    const runtimes = new Set(
      libSources(path.join(root, 'lib')).flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/Runtime\.NODEJS_(\d+)_X/g)].map((match) => match[1]),
      ),
    );
    expect([...runtimes]).toEqual([nvmrc]);
    const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } })
      .engines.node;
    const minimum = Number(/^>=(\d+)/.exec(engines)?.[1]);
    expect(minimum).toBeLessThanOrEqual(Number(nvmrc));
    expect(minimum).toBeGreaterThanOrEqual(22);
  });
});
