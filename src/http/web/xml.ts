// A small XML writer for the feeds: elements are built as trees and serialised with every text
// and attribute value escaped, and characters XML 1.0 cannot carry at all (most C0 controls,
// lone surrogates, U+FFFE/U+FFFF) dropped, so that whatever users typed the document parses.

export interface XmlElement {
  name: string;
  attributes?: Readonly<Record<string, string | number | undefined>>;
  /** Text (escaped) or child elements; absent: an empty element. */
  content?: string | readonly (XmlElement | null)[];
}

/** What XML 1.0 forbids outright (section 2.2, Char), including unpaired surrogates. */
const NOT_XML_CHAR =
  /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

export function xmlText(value: string): string {
  return value
    .replace(NOT_XML_CHAR, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

export function el(
  name: string,
  attributes: XmlElement["attributes"],
  content?: XmlElement["content"],
): XmlElement {
  return {
    name,
    ...(attributes ? { attributes } : {}),
    ...(content === undefined ? {} : { content }),
  };
}

function serialise(node: XmlElement, out: string[]): void {
  const attributes = Object.entries(node.attributes ?? {})
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${xmlText(String(value))}"`)
    .join("");
  if (node.content === undefined) {
    out.push(`<${node.name}${attributes}/>`);
    return;
  }
  out.push(`<${node.name}${attributes}>`);
  if (typeof node.content === "string") out.push(xmlText(node.content));
  else for (const child of node.content) if (child) serialise(child, out);
  out.push(`</${node.name}>`);
}

/** The whole document, with its XML declaration. */
export function xmlDocument(root: XmlElement): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  serialise(root, out);
  out.push("\n");
  return out.join("");
}
