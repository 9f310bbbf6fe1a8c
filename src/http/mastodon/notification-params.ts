// Query parameters shared by the notification endpoints of API v1 and v2.

import { z } from "zod";
import { idParam, limitParam, listParam } from "../schemas.ts";

/** Type names stay plain strings: clients name types this server never produces. */
const typeList = listParam(z.string()).optional();

export const notificationFilterFields = {
  types: typeList,
  exclude_types: typeList,
  account_id: idParam.optional(),
};

export const groupedTypesField = { grouped_types: typeList };

/** Mastodon caps unread counts: 100 by default, at most 1000. */
export const unreadCountSchema = z.object({
  ...notificationFilterFields,
  ...groupedTypesField,
  limit: limitParam(100, 1000),
});

export function queryInput(params: {
  types?: string[] | undefined;
  exclude_types?: string[] | undefined;
  account_id?: string | undefined;
}) {
  return { types: params.types, excludeTypes: params.exclude_types, accountId: params.account_id };
}
