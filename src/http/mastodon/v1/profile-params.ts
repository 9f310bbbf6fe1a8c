// What the signed-in user may change about their own account, as PATCH
// /api/v1/accounts/update_credentials and PATCH /api/v1/profile read it: text fields, flags,
// profile fields and images (multipart uploads), and the posting defaults under `source`.

import { z } from "zod";
import { QUOTE_POLICIES } from "../../../domain/quote.ts";
import type { UpdateCredentialsInput } from "../../../services/accounts/update-credentials.ts";
import { booleanParam } from "../../schemas.ts";
import { bytesOf, fileParam, mediaText } from "../media-params.ts";

const fieldAttributes = z.object({
  name: z.union([z.string(), z.null()]).optional(),
  value: z.union([z.string(), z.null()]).optional(),
});

/** `fields_attributes[0][name]=…` (a hash keyed by index) or a JSON array of {name, value}. */
const fieldsParam = z
  .union([z.array(fieldAttributes), z.record(z.string(), fieldAttributes)])
  .optional()
  .transform((v) => {
    if (v === undefined) return undefined;
    const list = Array.isArray(v) ? v : Object.values(v);
    return list.map((f) => ({ name: f.name ?? "", value: f.value ?? "" }));
  });

export const updateCredentialsSchema = z.object({
  display_name: mediaText,
  note: mediaText,
  locked: booleanParam.optional(),
  bot: booleanParam.optional(),
  discoverable: booleanParam.optional(),
  indexable: booleanParam.optional(),
  fields_attributes: fieldsParam,
  source: z
    .object({
      privacy: z.enum(["public", "unlisted", "private", "direct"]).optional(),
      sensitive: booleanParam.optional(),
      language: z.union([z.string(), z.null()]).optional(),
      quote_policy: z.enum(QUOTE_POLICIES).optional(),
    })
    .optional(),
  avatar: fileParam,
  header: fileParam,
});

/** The parsed parameters as the update use case takes them (uploads read into memory). */
export async function credentialsInput(
  params: z.infer<typeof updateCredentialsSchema>,
): Promise<UpdateCredentialsInput> {
  return {
    displayName: params.display_name,
    note: params.note,
    locked: params.locked,
    bot: params.bot,
    discoverable: params.discoverable,
    indexable: params.indexable,
    fields: params.fields_attributes,
    privacy: params.source?.privacy,
    sensitive: params.source?.sensitive,
    quotePolicy: params.source?.quote_policy,
    language: params.source?.language === null ? "" : params.source?.language,
    avatar: await bytesOf(params.avatar),
    header: await bytesOf(params.header),
  };
}
