// One CSV reader (RFC 4180: quoted fields may hold commas, line breaks and doubled quotes) for the admin's import
// files and the scripts reading ../shared/data.

export interface CsvRow {
  /** The line the row starts on (1-based). */
  line: number;
  cells: string[];
}

/** Every non-blank row, each with the line it starts on; a quote left open is reported at its row's start. */
export function csvRows(text: string): { rows: CsvRow[]; unclosedAt?: number } {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
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
    } else {
      cell += c;
      started = true;
    }
  }
  if (quoted) return { rows, unclosedAt: rowLine };
  if (started || cell !== '') rows.push({ line: rowLine, cells: [...cells, cell] });
  return { rows };
}

/** The data records of a CSV file with a header, as arrays of fields. */
export const csvRecords = (text: string): string[][] =>
  csvRows(text)
    .rows.slice(1)
    .map((r) => r.cells);
