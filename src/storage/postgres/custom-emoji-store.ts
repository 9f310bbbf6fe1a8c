// Custom emojis: table `custom_emojis` (migration 0004), found by (shortcode, domain). Shortcodes
// match case-sensitively, as in Mastodon; domains are host names and match in any case.

import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import type { CustomEmojiStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: CustomEmoji };

/** Local emojis have the empty domain, which no remote host has (as in json-file). */
const domainKey = (domain: string | null) => (domain ?? "").toLowerCase();

export function createCustomEmojiStore(db: PgContext): CustomEmojiStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from custom_emojis where id = ${id}`);
    },
    async findByShortcode(shortcode, domain) {
      // Should two emojis hold one shortcode (json-file keeps the last written), the newest wins.
      return firstData(
        await sql<Row[]>`
          select data from custom_emojis
          where domain_key = ${domainKey(domain)} and shortcode = ${shortcode}
          order by id desc limit 1`,
      );
    },
    async findByShortcodes(shortcodes, domain) {
      const found = new Map<string, CustomEmoji>();
      if (shortcodes.length === 0) return found;
      const rows = await sql<Row[]>`
        select distinct on (shortcode) data from custom_emojis
        where domain_key = ${domainKey(domain)}
          and shortcode = any(${[...new Set(shortcodes)]}::text[])
        order by shortcode, id desc`;
      const byCode = new Map(rows.map((row) => [row.data.shortcode, row.data]));
      // In the order asked, as json-file answers.
      for (const shortcode of shortcodes) {
        const emoji = byCode.get(shortcode);
        if (emoji) found.set(shortcode, emoji);
      }
      return found;
    },
    async listLocal() {
      // The "C" collation of the column: code-point order, whatever the server's locale.
      const rows = await sql<Row[]>`
        select data from custom_emojis where domain_key = '' order by shortcode, id`;
      return rows.map((row) => row.data);
    },
    async put(emoji) {
      await sql`
        insert into custom_emojis (id, shortcode, domain_key, data)
        values (
          ${emoji.id}, ${emoji.shortcode}, ${domainKey(emoji.domain)}, ${jsonb(sql, emoji)}
        )
        on conflict (id) do update set
          shortcode = excluded.shortcode,
          domain_key = excluded.domain_key,
          data = excluded.data`;
      db.changes.bump("custom_emojis");
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const result = await sql`delete from custom_emojis where id = ${id}`;
      if (result.count === 0) return false;
      db.changes.bump("custom_emojis");
      return true;
    },
  };
}
