// Admin operations on hashtags (`wren tag list|show|allow|deny|set`): the staff's review of a
// hashtag for the trends and its flags, by name (services/tags/admin-tags.ts).

import { z } from "zod";
import { AppError } from "../domain/errors.ts";
import {
  emptyReview,
  requiresReview,
  type TrendReview,
  trendableShown,
} from "../domain/trend-review.ts";
import type { ServiceContext } from "../services/context.ts";
import { reviewsOf } from "../services/discovery/trend-reviews.ts";
import { listAdminTags, updateAdminTag } from "../services/tags/admin-tags.ts";
import { parseTagName } from "../services/tags/tag-name.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export interface TagSummary {
  name: string;
  trendable: boolean;
  usable: boolean;
  listable: boolean;
  requiresReview: boolean;
  reviewedAt: string | null;
}

function summaryOf(ctx: ServiceContext, review: TrendReview): TagSummary {
  return {
    name: review.displayName ?? review.key,
    trendable: trendableShown(review, ctx.settings.trendsRequireReview === true),
    usable: review.usable ?? true,
    listable: review.listable ?? true,
    requiresReview: requiresReview(review),
    reviewedAt: review.reviewedAt,
  };
}

function normalized(name: string): string {
  const parsed = parseTagName(name);
  if (!parsed) throw new AppError(422, `Not a hashtag: ${name}`);
  return parsed.normalized;
}

const flag = z.boolean().optional();

export const TAG_OPERATIONS = {
  "tag.list": op({
    args: z.object({ pending: z.boolean().default(false) }),
    async run(ctx: ServiceContext, args) {
      const all = await listAdminTags(ctx, { limit: Number.MAX_SAFE_INTEGER });
      return all.filter((r) => !args.pending || requiresReview(r)).map((r) => summaryOf(ctx, r));
    },
  }),
  "tag.show": op({
    args: z.object({ name: z.string() }),
    async run(ctx: ServiceContext, args) {
      const name = normalized(args.name);
      const review = (await reviewsOf(ctx, "tag", [name])).get(name);
      return summaryOf(ctx, review ?? emptyReview("tag", name));
    },
  }),
  "tag.set": op({
    args: z.object({ name: z.string(), trendable: flag, usable: flag, listable: flag }),
    async run(ctx: ServiceContext, args) {
      const review = await updateAdminTag(ctx, normalized(args.name), {
        trendable: args.trendable,
        usable: args.usable,
        listable: args.listable,
      });
      return summaryOf(ctx, review);
    },
  }),
};
