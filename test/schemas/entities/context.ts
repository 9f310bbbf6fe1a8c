/** Context, from Mastodon's documentation (entities/Context.md): a status's thread around it. */
import { arrayOf, entity, object } from "../json-schema.ts";

export const Context = object(
  { ancestors: arrayOf(entity("Status")), descendants: arrayOf(entity("Status")) },
  {},
  "The statuses above and below a status in its thread",
);
