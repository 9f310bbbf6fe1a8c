// Exports in Mastodon's CSV formats (Mastodon's Export model), written as Mastodon writes them so
// that Mastodon (or Wren) imports them: following and mutes with their header line, blocks,
// lists and domain blocks without one, bookmarks as the statuses' ActivityPub ids; accounts as
// `user@host` (ours with our domain), booleans as `true`/`false`, newest first.

import { type Account, isLocal } from "../../domain/account.ts";
import type { ImportType } from "../../domain/csv-import.ts";
import type { Edge } from "../../domain/relations.ts";
import { formatCsv } from "../../serialization/csv/csv.ts";
import { EXPECTED } from "../../serialization/csv/import-rows.ts";
import type { ServiceContext } from "../context.ts";
import { isMuteActive } from "../graph/mute-expiry.ts";
import { ownLists } from "../lists/own-list.ts";
import { collectPages } from "../paging.ts";
import { localAccountNamed } from "./local-account.ts";

type Row = (string | null)[];

export async function exportCsv(
  ctx: ServiceContext,
  username: string,
  type: ImportType,
): Promise<string> {
  const owner = (await localAccountNamed(ctx, username)).id;
  const { storage } = ctx;
  const address = (account: Account) =>
    isLocal(account)
      ? `${account.username}@${ctx.settings.domain}`
      : `${account.username}@${account.domain}`;
  /** Each edge's target account as a row, skipping targets no longer stored. */
  const accountRows = async <E extends Edge>(edges: E[], row: (acct: string, edge: E) => Row) => {
    const targets = await storage.accounts.getMany(edges.map((edge) => edge.targetId));
    return edges.flatMap((edge) => {
      const target = targets.get(edge.targetId);
      return target ? [row(address(target), edge)] : [];
    });
  };
  switch (type) {
    case "following": {
      const follows = await collectPages((page) => storage.follows.listFrom(owner, page));
      const rows = await accountRows(follows, (acct, f) => [
        acct,
        String(f.showReblogs),
        String(f.notify),
        f.languages?.join(", ") ?? null,
      ]);
      return formatCsv([EXPECTED.following, ...rows]);
    }
    case "blocks": {
      const blocks = await collectPages((page) => storage.blocks.listFrom(owner, page));
      return formatCsv(await accountRows(blocks, (acct) => [acct]));
    }
    case "mutes": {
      const now = ctx.clock.now();
      const mutes = (await collectPages((page) => storage.mutes.listFrom(owner, page))).filter(
        (m) => isMuteActive(m, now),
      );
      const rows = await accountRows(mutes, (acct, m) => [acct, String(m.hideNotifications)]);
      return formatCsv([EXPECTED.mutes, ...rows]);
    }
    case "domain-blocks": {
      const blocks = await collectPages((page) =>
        storage.accountDomainBlocks.listFrom(owner, page),
      );
      return formatCsv(blocks.map((block) => [block.targetId]));
    }
    case "bookmarks": {
      const bookmarks = await collectPages((page) => storage.bookmarks.listFrom(owner, page));
      const statuses = await storage.statuses.getMany(bookmarks.map((b) => b.targetId));
      return formatCsv(
        bookmarks.flatMap((b) => {
          const status = statuses.get(b.targetId);
          return status && !status.deleted ? [[status.uri]] : [];
        }),
      );
    }
    case "lists": {
      const rows: Row[] = [];
      for (const list of await ownLists(ctx, owner)) {
        const members = await collectPages((page) => storage.listMembers.listFrom(list.id, page));
        rows.push(...(await accountRows(members, (acct) => [list.title, acct])));
      }
      return formatCsv(rows);
    }
  }
}
