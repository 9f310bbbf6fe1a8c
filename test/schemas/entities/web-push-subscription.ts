/**
 * WebPushSubscription, from Mastodon's documentation (entities/WebPushSubscription.md) and its
 * OpenAPI description: the documented alerts always present, as booleans; `policy` and
 * `standard` as Mastodon's serializer adds them.
 */
import { boolean, object, oneOf, string, uri } from "../json-schema.ts";

const ALERTS = [
  "mention",
  "status",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "poll",
  "update",
  "admin.sign_up",
  "admin.report",
];

export const WebPushSubscription = object(
  {
    id: string,
    endpoint: uri,
    alerts: {
      type: "object",
      required: ALERTS,
      properties: Object.fromEntries(ALERTS.map((type) => [type, boolean])),
      additionalProperties: boolean,
    },
    server_key: { type: "string", pattern: "^[A-Za-z0-9_-]{86,87}={0,2}$" },
  },
  { standard: boolean, policy: oneOf("all", "followed", "follower", "none") },
  "Represents a subscription to the push streaming server",
);
