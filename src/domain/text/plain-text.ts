// Plain text typed by a local user → the HTML that clients and peers receive: escaped, URLs
// linked, blank lines separating `<p>` paragraphs and single newlines as `<br />`. Used for
// profile bios now; the status work extends it with mentions and hashtags.

import { linkifyText } from "./links.ts";

/** Normalises line endings and trims, the form the source is kept in for comparison. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The HTML of a bio or similar plain text; empty text gives an empty string. */
export function plainTextToHtml(text: string): string {
  const normalized = normalizeNewlines(text).trim();
  if (normalized === "") return "";
  return normalized
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${linkifyText(paragraph).replace(/\n/g, "<br />")}</p>`)
    .join("");
}

/** The HTML of a profile field value: linked with rel="me", no paragraph. */
export function fieldValueToHtml(value: string): string {
  return linkifyText(value.trim(), { me: true });
}
