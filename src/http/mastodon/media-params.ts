// Parameters shared by the media endpoints and status edits: uploaded files (multipart parts),
// the text fields that go with them, and media_attributes[] on PUT /api/v1/statuses/:id.

import { z } from "zod";
import { idParam } from "../schemas.ts";

/** Text fields: JSON clients may send null for "unchanged". */
export const mediaText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => v ?? undefined);

/**
 * Paperclip's DataUriAdapter, which Mastodon registers: a JSON client may send a file as
 * `data:<type>;base64,<bytes>` (only base64, only with a media type or none, as its pattern).
 */
const DATA_URI = /^data:([-\w]+\/[-\w+.]+)?;base64,(.*)$/s;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function fileFromDataUri(value: string): File | undefined {
  const match = DATA_URI.exec(value);
  if (!match || !BASE64.test(match[2] as string)) return undefined;
  const bytes = Buffer.from(match[2] as string, "base64");
  return new File([bytes], "data", { type: match[1] ?? "" });
}

/**
 * Why a value that is no file was refused. A JSON body cannot carry a file: JSON.stringify turns a
 * Blob into `{}`, which is what masto.js sends for `media.$select(id).update({ thumbnail })`
 * (it encodes media updates as JSON). Mastodon drops such a value without a word; Wren says so.
 */
const NOT_A_FILE =
  "must be a file: send it as a part of a multipart/form-data body, or as a base64 data: URI " +
  "(data:image/png;base64,…) in a JSON body, where a Blob or File serialises to {}";

/**
 * An uploaded file: a multipart part, or a base64 data: URI string (as Mastodon accepts). An
 * empty part without a file name is a form's "no file chosen".
 */
export const fileParam = z
  .unknown()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === "") return undefined;
    if (v instanceof File) return v.size === 0 && v.name === "" ? undefined : v;
    const file = typeof v === "string" ? fileFromDataUri(v) : undefined;
    if (file) return file;
    ctx.addIssue({ code: "custom", message: NOT_A_FILE });
    return z.NEVER;
  });

/** The bytes of an uploaded file (validation is synchronous, reading is not). */
export async function bytesOf(file: File | undefined): Promise<Uint8Array | undefined> {
  return file ? new Uint8Array(await file.arrayBuffer()) : undefined;
}

const mediaAttribute = z.object({
  id: idParam,
  description: mediaText,
  focus: mediaText,
  thumbnail: fileParam,
});

/** `media_attributes[0][id]=…` (a hash keyed by index) or a JSON array of objects. */
export const mediaAttributesParam = z
  .union([z.array(mediaAttribute), z.record(z.string(), mediaAttribute), z.null()])
  .optional()
  .transform((v) => {
    if (v === undefined || v === null) return undefined;
    return Array.isArray(v) ? v : Object.values(v);
  });
