// `--workspaces-file <path>`: one workspace id or prefix grant a line, for granting thousands at once. Blank lines and
// lines starting with # are skipped; anything else is checked like a --workspace (operator-input.ts assertGrants).
import { readFile } from 'node:fs/promises';
import { AdminInputError } from './operator-input';

export async function readWorkspacesFile(path: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new AdminInputError(
      `cannot read --workspaces-file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const grants = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  if (grants.length === 0) throw new AdminInputError(`--workspaces-file ${path} holds no workspace`);
  return grants;
}
