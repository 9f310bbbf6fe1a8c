// The actions of `wren account ACTION USERNAME` (the admin API's, services/accounts/
// moderate-account.ts). Their own module: the command line lists them in its command table,
// which must not load the operation and its services to do so (ADR 0053).

export const MODERATION_ACTIONS = [
  "suspend",
  "unsuspend",
  "silence",
  "unsilence",
  "sensitive",
  "unsensitive",
  "disable",
  "enable",
] as const;
