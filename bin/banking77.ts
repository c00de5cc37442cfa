// Reading banking77-train.csv (../shared/data): shared by the learning eval and the bench.

/** CSV with a header, quoted fields where the text holds a comma. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cur);
      cur = '';
    } else if (c === '\n') {
      row.push(cur);
      rows.push(row);
      row = [];
      cur = '';
    } else if (c !== '\r') cur += c;
  }
  if (cur || row.length) rows.push([...row, cur]);
  return rows;
}

/** As the data README says a partner would: lower-case, drop what the name pattern does not allow. */
export const categoryName = (raw: string) => raw.toLowerCase().replace(/[^a-z0-9_]/g, '');
