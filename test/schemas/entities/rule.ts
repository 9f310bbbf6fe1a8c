/** Rule, from Mastodon's documentation (entities/Rule.md): one of the server's rules. */
import { nullable, object, string } from "../json-schema.ts";

export const Rule = object(
  { id: string, text: string, hint: string },
  { translations: nullable({ type: "object" }) },
  "A rule users agree to",
);
