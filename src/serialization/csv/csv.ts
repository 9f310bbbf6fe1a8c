// RFC 4180 CSV, as Ruby's CSV library reads and writes it for Mastodon's imports and exports:
// fields separated by commas, quoted with `"` when they hold a comma, a quote or a line break
// (a quote inside doubled), rows ended by LF or CRLF. Pure: text in, rows out, and back.

/** A row that cannot be read: an unclosed quote, or text after a closing quote. */
export class CsvSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CsvSyntaxError";
  }
}

/** The rows of `text` (each an array of fields); blank lines are skipped, as `skip_blanks`. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let i = 0;
  const endRow = () => {
    row.push(field);
    field = "";
    if (!(row.length === 1 && row[0] === "")) rows.push(row);
    row = [];
  };
  while (i < body.length) {
    const c = body[i] as string;
    if (quoted) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        const next = body[i + 1];
        if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
          throw new CsvSyntaxError(`Any value after quoted field isn't allowed in line ${line}`);
        }
      } else {
        if (c === "\n") line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && body[i + 1] === "\n") {
      endRow();
      line++;
      i++;
    } else if (c === "\n" || c === "\r") {
      endRow();
      line++;
    } else field += c;
    i++;
  }
  if (quoted) throw new CsvSyntaxError(`Unclosed quoted field in line ${line}`);
  if (field !== "" || row.length > 0) endRow();
  return rows;
}

/** null is an empty field; an empty string is quoted (`""`), as Ruby writes nil and "". */
function formatField(value: string | null): string {
  if (value === null) return "";
  return value === "" || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Rows as CSV text, each ended by a newline (Ruby's CSV.generate). */
export function formatCsv(rows: readonly (readonly (string | null)[])[]): string {
  return rows.map((row) => `${row.map(formatField).join(",")}\n`).join("");
}
