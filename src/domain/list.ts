// Lists: a user's named groups of accounts they follow, each with its own timeline (Mastodon's
// lists). Membership is an edge from the list to the member account (ListMember).

import type { Edge } from "./relations.ts";

/** Which replies a list's timeline shows, besides replies to the owner and self-replies. */
export const REPLIES_POLICIES = ["followed", "list", "none"] as const;

export type RepliesPolicy = (typeof REPLIES_POLICIES)[number];

/** The most lists one user may have, as in Mastodon. */
export const LISTS_PER_ACCOUNT = 50;

export interface List {
  id: string;
  /** The owner (a local account). */
  accountId: string;
  title: string;
  repliesPolicy: RepliesPolicy;
  /** The members' posts leave the owner's home timeline and appear only in this list. */
  exclusive: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * One account in one list: `accountId` holds the list's id (the side that "has" the edge),
 * `targetId` the member's account id, so the edge store pages a list's members and finds the
 * lists an account is in.
 */
export type ListMember = Edge;
