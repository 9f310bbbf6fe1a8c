// The instance's longer documents the operator publishes from the CLI: the extended description
// (the about page) and the privacy policy. Kept in the key–value store so every process serves
// the same text. The operator gives either HTML, published as is (the operator is trusted, as
// Mastodon trusts an admin's site settings), or plain text, turned into paragraphs.

import { unprocessable } from "../../domain/errors.ts";
import { DOCUMENT_MAX_BYTES } from "../../domain/instance-documents.ts";
import { plainTextToHtml } from "../../domain/text/plain-text.ts";
import type { ServiceContext } from "../context.ts";

export const DOCUMENT_KINDS = ["extended-description", "privacy-policy"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export type DocumentFormat = "html" | "text";

export interface InstanceDocument {
  /** HTML, as clients receive it. */
  content: string;
  updatedAt: string;
}

const keyOf = (kind: DocumentKind) => ["wren", "instance", "document", kind];

/** A document's HTML from what the operator gave; 422 for an empty or oversized one. */
export function documentHtml(text: string, format: DocumentFormat): string {
  if (Buffer.byteLength(text, "utf8") > DOCUMENT_MAX_BYTES) {
    throw unprocessable(`The document is larger than ${DOCUMENT_MAX_BYTES} bytes`);
  }
  const html = format === "html" ? text.trim() : plainTextToHtml(text);
  if (html === "") throw unprocessable("The document is empty");
  return html;
}

export async function getDocument(
  ctx: ServiceContext,
  kind: DocumentKind,
): Promise<InstanceDocument | undefined> {
  return (await ctx.storage.kv.get(keyOf(kind)))?.value as InstanceDocument | undefined;
}

export async function setDocument(
  ctx: ServiceContext,
  kind: DocumentKind,
  input: { text: string; format: DocumentFormat },
): Promise<InstanceDocument> {
  const document = {
    content: documentHtml(input.text, input.format),
    updatedAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.kv.set({ key: keyOf(kind), value: document, expiresAt: null });
  return document;
}

/** Unpublishes the document; false when there was none. */
export function clearDocument(ctx: ServiceContext, kind: DocumentKind): Promise<boolean> {
  return ctx.storage.kv.delete(keyOf(kind));
}
