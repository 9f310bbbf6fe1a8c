// Mastodon's type selection for notification lists and counts: `types[]` (unknown names
// ignored) narrows the known types, `exclude_types[]` removes some. Clients send types this
// server does not produce (admin.sign_up, quote…), which simply match nothing.

import { NOTIFICATION_TYPES, type NotificationType } from "../../domain/notification.ts";
import type { NotificationQuery } from "./shown.ts";

export function selectTypes(
  types: readonly string[] | undefined,
  excludeTypes: readonly string[] | undefined,
): NotificationType[] {
  const requested =
    types && types.length > 0
      ? NOTIFICATION_TYPES.filter((t) => types.includes(t))
      : [...NOTIFICATION_TYPES];
  return requested.filter((t) => !excludeTypes?.includes(t));
}

export function notificationQuery(params: {
  types?: readonly string[] | undefined;
  excludeTypes?: readonly string[] | undefined;
  accountId?: string | undefined;
}): NotificationQuery {
  return {
    types: selectTypes(params.types, params.excludeTypes),
    fromAccountId: params.accountId,
  };
}
