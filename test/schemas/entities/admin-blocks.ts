/**
 * The admin API's server-level records, from Mastodon's documentation
 * (entities/Admin_DomainBlock.md, Admin_DomainAllow.md, Admin_IpBlock.md,
 * Admin_EmailDomainBlock.md, Admin_CanonicalEmailBlock.md).
 */
import { arrayOf, boolean, dateTime, nullable, object, oneOf, string } from "../json-schema.ts";

const sha256 = { type: "string", pattern: "^[0-9a-f]{64}$" };

export const AdminDomainBlock = object(
  {
    id: string,
    domain: string,
    digest: sha256,
    created_at: dateTime,
    severity: oneOf("silence", "suspend", "noop"),
    reject_media: boolean,
    reject_reports: boolean,
    private_comment: nullable(string),
    public_comment: nullable(string),
    obfuscate: boolean,
  },
  {},
  "A domain limited or suspended by the server's admins",
);

export const AdminDomainAllow = object(
  { id: string, domain: string, created_at: dateTime },
  {},
  "A domain allowed to federate (allow-list mode)",
);

export const AdminIpBlock = object(
  {
    id: string,
    ip: string,
    severity: oneOf("sign_up_requires_approval", "sign_up_block", "no_access"),
    comment: string,
    created_at: dateTime,
    expires_at: nullable(dateTime),
  },
  {},
  "An IP address range blocked from signing up or from the server",
);

export const AdminEmailDomainBlock = object(
  {
    id: string,
    domain: string,
    created_at: dateTime,
    history: arrayOf(
      object({ day: string, accounts: string, uses: string }, {}, "Sign-ups stopped on a day"),
    ),
  },
  { allow_with_approval: boolean },
  "An email domain that may not sign up",
);

export const AdminCanonicalEmailBlock = object(
  { id: string, canonical_email_hash: sha256 },
  {},
  "A canonical email address that may not sign up",
);
