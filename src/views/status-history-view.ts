// The read side of a status's edit history: its versions with the author and every attachment
// any version showed, each read once for the whole history.

import type { MediaAttachment } from "../domain/media.ts";
import type { StatusEdit } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import { type AccountView, loadAccountView } from "./account-view.ts";

export interface StatusHistoryView {
  versions: StatusEdit[];
  author: AccountView;
  media: Map<string, MediaAttachment>;
}

/** Undefined when there is nothing to show: no versions, or the author has vanished. */
export async function loadStatusHistoryView(
  ctx: ServiceContext,
  versions: StatusEdit[],
): Promise<StatusHistoryView | undefined> {
  const authorId = versions[0]?.accountId;
  const author = authorId ? await ctx.storage.accounts.get(authorId) : undefined;
  if (!author) return undefined;
  const mediaIds = [...new Set(versions.flatMap((v) => v.mediaIds))];
  const [view, media] = await Promise.all([
    loadAccountView(ctx, author),
    ctx.storage.media.getMany(mediaIds),
  ]);
  return { versions, author: view, media };
}
