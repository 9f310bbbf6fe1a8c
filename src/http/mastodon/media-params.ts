// Parameters shared by the media endpoints and status edits: uploaded files (multipart parts),
// the text fields that go with them, and media_attributes[] on PUT /api/v1/statuses/:id.

import { z } from "zod";
import { idParam } from "../schemas.ts";

/** Text fields: JSON clients may send null for "unchanged". */
export const mediaText = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => v ?? undefined);

/** An uploaded file. An empty part without a file name is a form's "no file chosen". */
export const fileParam = z
  .union([z.instanceof(File), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v === "string") {
      ctx.addIssue({ code: "custom", message: "must be a file upload (multipart/form-data)" });
      return z.NEVER;
    }
    return v.size === 0 && v.name === "" ? undefined : v;
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
