/** Error, from Mastodon's documentation (entities/Error.md): every 4xx/5xx JSON body. */
import { arrayOf, nullable, object, string } from "../json-schema.ts";

export const ErrorEntity = object(
  { error: string },
  { error_description: nullable(string) },
  "An error message",
);

/** A 422 from sign-up: the message plus, per attribute, what is wrong with it. */
export const ValidationError = object(
  {
    error: string,
    details: {
      type: "object",
      additionalProperties: arrayOf(object({ error: string, description: string })),
    },
  },
  {},
  "A refused sign-up with the reason per attribute",
);
