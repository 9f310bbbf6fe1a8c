// Reading an uploaded file as Mastodon's Form::Import does: a first line that starts with a known
// header names the columns; otherwise the file has the type's default columns (the one-column
// account lists of old exports, lists and domain blocks without a header). Values are converted
// as Mastodon's converters do (booleans, languages split on commas, a leading @ dropped).

import type { ImportRow, ImportType } from "../../domain/csv-import.ts";
import { parseCsv } from "./csv.ts";

export const ROWS_LIMIT = 20_000;

const ACCOUNT = "Account address";
const DOMAIN = "#domain";
const URI = "#uri";
const LIST = "List name";

/** The columns of each kind of file; exports write the header of following and mutes only. */
export const EXPECTED: Record<ImportType, readonly string[]> = {
  following: [ACCOUNT, "Show boosts", "Notify on new posts", "Languages"],
  blocks: [ACCOUNT],
  mutes: [ACCOUNT, "Hide notifications"],
  "domain-blocks": [DOMAIN],
  bookmarks: [URI],
  lists: [LIST, ACCOUNT],
};

const KNOWN_FIRST = new Set(Object.values(EXPECTED).map((headers) => headers[0]));

/** The columns a file without a header line has. */
const DEFAULT_HEADERS: Record<ImportType, readonly string[]> = {
  following: [ACCOUNT],
  blocks: [ACCOUNT],
  mutes: [ACCOUNT],
  "domain-blocks": [DOMAIN],
  bookmarks: [URI],
  lists: [LIST, ACCOUNT],
};

/** A file that cannot be imported as the type asked for; the message says why. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImportFileError";
  }
}

/** ActiveModel's boolean cast: empty is unset; "false", "0", "f" and "off" are false. */
function boolean(field: string): boolean | undefined {
  const value = field.trim().toLowerCase();
  if (value === "") return undefined;
  return !["false", "0", "f", "off"].includes(value);
}

function setField(row: ImportRow, header: string, field: string): void {
  const text = field.trim();
  switch (header) {
    case ACCOUNT:
      if (text !== "") row.acct = text.replace(/^@/, "");
      break;
    case "Show boosts":
    case "Notify on new posts":
    case "Hide notifications": {
      const value = boolean(field);
      if (value === undefined) break;
      if (header === "Show boosts") row.showReblogs = value;
      else if (header === "Notify on new posts") row.notify = value;
      else row.hideNotifications = value;
      break;
    }
    case "Languages": {
      const languages = field
        .split(",")
        .map((l) => l.trim())
        .filter((l) => l !== "");
      if (languages.length > 0) row.languages = languages;
      break;
    }
    case DOMAIN:
      if (text !== "") row.domain = text.toLowerCase();
      break;
    case URI:
      if (text !== "") row.uri = text;
      break;
    case LIST:
      if (text !== "") row.listName = text;
      break;
  }
}

/** The rows of an uploaded file of `type`; throws ImportFileError when it is not one. */
export function readImportRows(type: ImportType, text: string): ImportRow[] {
  let lines: string[][];
  try {
    lines = parseCsv(text);
  } catch (error) {
    throw new ImportFileError(`The file is not valid CSV: ${(error as Error).message}`);
  }
  const first = lines[0];
  if (first === undefined) throw new ImportFileError("The file is empty");
  const named = KNOWN_FIRST.has(first[0] ?? "");
  const headers = named ? first : DEFAULT_HEADERS[type];
  if (!DEFAULT_HEADERS[type].every((h) => headers.includes(h))) {
    throw new ImportFileError(`The file does not have the columns of a ${type} import`);
  }
  const data = named ? lines.slice(1) : lines;
  if (data.length > ROWS_LIMIT) {
    throw new ImportFileError(`The file has more than ${ROWS_LIMIT} rows`);
  }
  const wanted = new Set(EXPECTED[type]);
  return data.map((fields) => {
    const row: ImportRow = {};
    headers.forEach((header, i) => {
      if (wanted.has(header)) setField(row, header, fields[i] ?? "");
    });
    return row;
  });
}
