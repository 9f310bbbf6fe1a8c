/** Profile, from Mastodon's documentation (entities/Profile.md): the owner's editable values. */
import { arrayOf, boolean, entity, nullable, object, string, uri } from "../json-schema.ts";

export const Profile = object(
  {
    id: string,
    display_name: string,
    note: string,
    fields: arrayOf(entity("Field")),
    avatar: nullable(uri),
    avatar_static: nullable(uri),
    avatar_description: string,
    header: nullable(uri),
    header_static: nullable(uri),
    header_description: string,
    locked: boolean,
    bot: boolean,
    hide_collections: nullable(boolean),
    discoverable: nullable(boolean),
    indexable: boolean,
    show_media: boolean,
    show_media_replies: boolean,
    show_featured: boolean,
    attribution_domains: arrayOf(string),
  },
  { featured_tags: arrayOf(entity("FeaturedTag")) },
  "The signed-in user's profile, with the source of every editable value",
);
