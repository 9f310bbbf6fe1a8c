/**
 * The instance's documents and its public domain list, from Mastodon's documentation
 * (entities/ExtendedDescription.md, PrivacyPolicy.md, TermsOfService.md, DomainBlock.md).
 */
import { boolean, date, dateTime, nullable, object, oneOf, string } from "../json-schema.ts";

/**
 * `updated_at` is documented as a datetime; Mastodon's own server sends null while no
 * description was ever set (its ExtendedDescription model), and so does Wren.
 */
export const ExtendedDescription = object(
  { updated_at: nullable(dateTime), content: string },
  {},
  "The extended description of the server (its about page)",
);

export const PrivacyPolicy = object(
  { updated_at: dateTime, content: string },
  {},
  "The privacy policy of the server",
);

export const TermsOfService = object(
  { effective_date: date, effective: boolean, content: string },
  { succeeded_by: nullable(date) },
  "The terms of service of the server",
);

export const DomainBlock = object(
  {
    domain: string,
    digest: { type: "string", pattern: "^[0-9a-f]{64}$" },
    severity: oneOf("silence", "suspend"),
  },
  { comment: nullable(string) },
  "A domain blocked by the server",
);
