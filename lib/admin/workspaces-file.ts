// `--workspaces-file <path>`: one workspace id or prefix grant a line, for granting thousands at once. Blank lines and
// lines starting with # are skipped; anything else is checked like a --workspace (operator-input.ts assertGrants).
import { readFile } from 'node:fs/promises';
import { grantProblem } from '../../lambdas/domain/grants';
import { AdminInputError, refuseApiKey } from './operator-input';

export async function readWorkspacesFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new AdminInputError(
      `cannot read --workspaces-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const grants: string[] = [];
  for (const [at, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    // Checked here too, to name the line: in a file of thousands, "bad workspace" alone leaves the operator searching.
    // A key's secret first, as assertGrants refuses it: the problem's message would print the line back.
    const where = `--workspaces-file ${path} line ${at + 1}`;
    refuseApiKey(where, line);
    const problem = grantProblem(line);
    if (problem) throw new AdminInputError(`${where}: ${problem}`);
    grants.push(line);
  }
  if (grants.length === 0) throw new AdminInputError(`--workspaces-file ${path} holds no workspace`);
  return grants;
}
