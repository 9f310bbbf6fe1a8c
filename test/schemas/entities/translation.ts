/** Translation, from Mastodon's documentation (entities/Translation.md): a status machine-translated. */
import { arrayOf, language, nullable, object, string } from "../json-schema.ts";

export const Translation = object(
  {
    content: string,
    spoiler_text: string,
    poll: nullable(object({ id: string, options: arrayOf(object({ title: string })) })),
    media_attachments: arrayOf(object({ id: string, description: string })),
    detected_source_language: language,
    language,
    provider: string,
  },
  {},
  "The machine translation of a status",
);
