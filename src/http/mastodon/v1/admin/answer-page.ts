// The admin API's lists of server-level records: paged by id in memory (they are few), newest
// first, with Mastodon's Link header.

import type { Context } from "hono";
import { z } from "zod";
import { pageRecordsById } from "../../../../domain/server-blocks.ts";
import type { HttpDeps, HttpEnv } from "../../../env.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../../pagination.ts";
import { readValidParams } from "../../../params.ts";

const listSchema = z.object(pageFields(100, 200));

export async function answerRecordPage<T extends { id: string }>(
  c: Context<HttpEnv>,
  deps: HttpDeps,
  records: readonly T[],
  render: (item: T) => unknown,
) {
  const items = pageRecordsById(records, toIdPage(await readValidParams(c, listSchema)));
  setLinkHeader(c, deps.ctx.settings.publicUrl, {
    newestId: items[0]?.id,
    oldestId: items.at(-1)?.id,
  });
  return c.json(items.map(render));
}
