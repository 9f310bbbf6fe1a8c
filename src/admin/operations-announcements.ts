// Admin operations on announcements: publish one, list them all with their state, delete one.

import { z } from "zod";
import { createAnnouncement } from "../services/announcements/create-announcement.ts";
import { deleteAnnouncement } from "../services/announcements/delete-announcement.ts";
import { listAllAnnouncements } from "../services/announcements/list-announcements.ts";
import { isActive } from "../services/announcements/schedule.ts";
import type { ServiceContext } from "../services/context.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export const ANNOUNCEMENT_OPERATIONS = {
  "announcement.create": op({
    args: z.object({
      text: z.string(),
      startsAt: z.string().nullable().default(null),
      endsAt: z.string().nullable().default(null),
      allDay: z.boolean().default(false),
    }),
    async run(ctx: ServiceContext, args) {
      const announcement = await createAnnouncement(ctx, args);
      return { id: announcement.id };
    },
  }),
  "announcement.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      const now = ctx.clock.now();
      return (await listAllAnnouncements(ctx)).map((a) => ({
        id: a.id,
        text: a.text,
        startsAt: a.startsAt,
        endsAt: a.endsAt,
        allDay: a.allDay,
        publishedAt: a.publishedAt,
        state: isActive(a, now)
          ? "active"
          : a.endsAt !== null && a.endsAt <= now.toISOString()
            ? "ended"
            : "scheduled",
      }));
    },
  }),
  "announcement.delete": op({
    args: z.object({ id: z.string() }),
    async run(ctx: ServiceContext, args) {
      const announcement = await deleteAnnouncement(ctx, args.id);
      return { id: announcement.id };
    },
  }),
};
