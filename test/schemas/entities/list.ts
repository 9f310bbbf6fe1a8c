/** List, from Mastodon's documentation (entities/List.md): a user's list of followed accounts. */
import { boolean, object, oneOf, string } from "../json-schema.ts";

export const List = object(
  {
    id: string,
    title: string,
    replies_policy: oneOf("followed", "list", "none"),
    exclusive: boolean,
  },
  {},
  "A list of accounts whose posts form a timeline",
);
