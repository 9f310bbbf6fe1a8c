// The instance actor: an Application actor representing the server itself, which signs every
// outgoing GET (servers with authorized fetch refuse unsigned ones). It lives under the one
// actor path Fedify allows, `/users/{identifier}`, with the instance's host as identifier, as
// GoToSocial does; sign-up refuses that name so no person can take it.

import type { InstanceSettings } from "../services/context.ts";

export function instanceActorIdentifier(settings: InstanceSettings): string {
  return settings.domain;
}
