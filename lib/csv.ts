// One CSV reader (RFC 4180: quoted fields may hold commas, line breaks and doubled quotes) for the admin's import
// files and the scripts reading ../shared/data.

interface CsvRow {
  /** The line the row starts on (1-based). */
  line: number;
  cells: string[];
}

/**
 * Every non-blank row, each with the line it starts on. A quote never closed is reported at its row's start (in
 * `unclosed`), and reading goes on at the next line: one stray quote would otherwise swallow every row after it.
 */
export function csvRows(text: string, firstLine = 1): { rows: CsvRow[]; unclosed: number[] } {
  const rows: CsvRow[] = [];
  let rowStart = 0;
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = firstLine;
  let rowLine = firstLine;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        cell += c;
      }
      continue;
    }
    if (c === '"' && cell === '') {
      quoted = true;
      started = true;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
      started = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (started || cell !== '') rows.push({ line: rowLine, cells: [...cells, cell] });
      cells = [];
      cell = '';
      started = false;
      line++;
      rowLine = line;
      rowStart = i + 1;
    } else {
      cell += c;
      started = true;
    }
  }
  if (quoted) {
    const next = text.indexOf('\n', rowStart);
    const rest = next < 0 ? { rows: [], unclosed: [] } : csvRows(text.slice(next + 1), rowLine + 1);
    return { rows: [...rows, ...rest.rows], unclosed: [rowLine, ...rest.unclosed] };
  }
  if (started || cell !== '') rows.push({ line: rowLine, cells: [...cells, cell] });
  return { rows, unclosed: [] };
}

/** The data records of a CSV file with a header, as arrays of fields. */
export const csvRecords = (text: string): string[][] =>
  csvRows(text)
    .rows.slice(1)
    .map((r) => r.cells);
