// The files `workspace import` reads (docs/partners.md, "Importing your history, and forgetting it"): JSON Lines, one
// `{"signal", "labels"}` a line, or CSV with a header (subject, body, sender, source, received_at and the label columns
// priority, recommended_action, category, queue; a missing source means email; quoted fields may span lines). Each
// record keeps the line it starts on, so errors name it; a line that cannot be read is an error of its own and the rest
// goes on.

import { csvRows } from '../csv';
import { looksLikeApiKey } from '../../lambdas/domain/api-key';

interface FileRecord {
  line: number;
  example: unknown;
}

export interface FileProblem {
  line: number;
  code: string;
  message: string;
}

/** Something read past, which costs no line its import (an unknown CSV column). */
export interface FileWarning {
  line: number;
  message: string;
}

interface ParsedFile {
  records: FileRecord[];
  problems: FileProblem[];
  warnings: FileWarning[];
  /** Data lines read, valid or not. */
  examples: number;
}

const SIGNAL_COLUMNS = ['subject', 'body', 'sender', 'source', 'received_at'] as const;
const LABEL_COLUMNS = ['priority', 'recommended_action', 'category', 'queue'] as const;
const KNOWN_COLUMNS = new Set<string>([...SIGNAL_COLUMNS, ...LABEL_COLUMNS]);

/**
 * JSON Lines for a `.jsonl` or `.ndjson` file, CSV for a `.csv` one; otherwise JSON Lines when the first non-blank
 * character opens an object. By its name first: a JSON Lines file whose first line is broken was read as CSV whole.
 */
export function parseImportFile(text: string, fileName = ''): ParsedFile {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1].toLowerCase();
  if (extension === 'jsonl' || extension === 'ndjson') return parseJsonLines(body);
  if (extension === 'csv') return parseCsv(body);
  return /^\s*\{/.test(body) ? parseJsonLines(body) : parseCsv(body);
}

function parseJsonLines(text: string): ParsedFile {
  const records: FileRecord[] = [];
  const problems: FileProblem[] = [];
  let examples = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.trim()) return;
    examples++;
    try {
      records.push({ line: i + 1, example: JSON.parse(line) });
    } catch {
      problems.push({ line: i + 1, code: 'INVALID_JSON', message: 'this line is not a JSON object' });
    }
  });
  return { records, problems, warnings: [], examples };
}

export function parseCsv(text: string): ParsedFile {
  const { rows, unclosed } = csvRows(text);
  const problems: FileProblem[] = [];
  const warnings: FileWarning[] = [];
  const records: FileRecord[] = [];
  const header = rows.shift();
  if (!header) return { records, problems, warnings, examples: 0 };
  const columns = header.cells.map((c) => c.trim().toLowerCase());
  // A first line that names no column this import reads is an example, not a header (a file exported without one):
  // the file is refused whole, and its text is not repeated (an example's subject or body is never printed).
  if (!columns.some((c) => KNOWN_COLUMNS.has(c))) {
    problems.push({
      line: header.line,
      code: 'INVALID_CSV',
      message: `this is not a header: it names none of the columns ${[...KNOWN_COLUMNS].join(', ')}`,
    });
    return { records, problems, warnings, examples: rows.length + 1 + unclosed.length };
  }
  // A name that does not read as one (long, or with `@`, `/`, spaces between words...) is text: named by its place.
  const unknown = columns.flatMap((c, i) =>
    KNOWN_COLUMNS.has(c) ? [] : [/^[a-z0-9_.-]{1,40}$/.test(c) && !looksLikeApiKey(c) ? c : `column ${i + 1}`],
  );
  // A warning, not an error: every line is still imported (an export's `notes` or `id`), so the run succeeds.
  if (unknown.length)
    warnings.push({ line: header.line, message: `unknown column(s) ${unknown.join(', ')} (ignored)` });
  for (const row of rows) {
    if (row.cells.length !== columns.length) {
      problems.push({
        line: row.line,
        code: 'VALIDATION_ERROR',
        message: `has ${row.cells.length} fields where the header has ${columns.length}`,
      });
      continue;
    }
    const signal: Record<string, string> = { source: 'email' };
    const labels: Record<string, string> = {};
    columns.forEach((name, i) => {
      const value = row.cells[i];
      if (value === '') return;
      if ((SIGNAL_COLUMNS as readonly string[]).includes(name)) signal[name] = value;
      else if ((LABEL_COLUMNS as readonly string[]).includes(name)) labels[name] = value;
    });
    records.push({ line: row.line, example: { signal, labels } });
  }
  for (const line of unclosed) {
    problems.push({
      line,
      code: 'INVALID_CSV',
      message: 'a quoted field is never closed (read on from the next line)',
    });
  }
  problems.sort((a, b) => a.line - b.line);
  return { records, problems, warnings, examples: rows.length + unclosed.length };
}
