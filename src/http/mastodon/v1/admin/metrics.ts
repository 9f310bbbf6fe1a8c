// The admin API's metrics (Mastodon's POST /api/v1/admin/measures, /dimensions, /retention), for
// staff holding `view_dashboard` with an admin:read token. Rules in services/metrics/.

import type { Hono } from "hono";
import { z } from "zod";
import { dimensions } from "../../../../services/metrics/dimensions.ts";
import { type MeasureParams, measures } from "../../../../services/metrics/measures.ts";
import { periodOf } from "../../../../services/metrics/period.ts";
import { retention } from "../../../../services/metrics/retention.ts";
import type { HttpDeps, HttpEnv } from "../../../env.ts";
import type { Access } from "../../../middleware/access.ts";
import { readValidParams } from "../../../params.ts";
import { anyIdParam, limitParam, listParam } from "../../../schemas.ts";

const READ = { scopes: ["admin:read"], permission: "view_dashboard" } as const;

const periodFields = {
  start_at: z.string({ error: "is missing" }),
  end_at: z.string({ error: "is missing" }),
};
/** `tag_uses[id]`, `instance_statuses[domain]`…: any key's object of an id or a domain. */
const keyParams = z.record(
  z.string(),
  z.unknown().transform((value): { id?: string; domain?: string } => {
    if (typeof value !== "object" || value === null) return {};
    const { id, domain } = value as Record<string, unknown>;
    const parsedId = anyIdParam.safeParse(id);
    return {
      ...(parsedId.success ? { id: parsedId.data } : {}),
      ...(typeof domain === "string" ? { domain } : {}),
    };
  }),
);
const keyedSchema = z
  .object({ keys: listParam(z.string()), ...periodFields, limit: limitParam(10, 100) })
  .catchall(z.unknown());
const retentionSchema = z.object({
  ...periodFields,
  // Anything but "month" is "day", as Mastodon reads it.
  frequency: z.unknown().transform((value) => (value === "month" ? "month" : "day")),
});

/** Mastodon's times: midnight UTC of the day. */
const at = (day: string) => `${day}T00:00:00Z`;

function paramsOf(params: Record<string, unknown>): MeasureParams {
  return keyParams.parse(
    Object.fromEntries(
      Object.entries(params).filter(
        ([key]) => !["keys", "start_at", "end_at", "limit"].includes(key),
      ),
    ),
  );
}

export function adminMetricRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.post("/api/v1/admin/measures", access(READ), async (c) => {
    const params = await readValidParams(c, keyedSchema);
    const period = periodOf(params.start_at, params.end_at);
    const found = await measures(ctx, params.keys, period, paramsOf(params));
    return c.json(
      found.map((m) => ({
        key: m.key,
        unit: m.unit,
        total: String(m.total),
        ...(m.previousTotal === undefined ? {} : { previous_total: String(m.previousTotal) }),
        data: m.data.map((d) => ({ date: at(d.date), value: String(d.value) })),
      })),
    );
  });

  app.post("/api/v1/admin/dimensions", access(READ), async (c) => {
    const params = await readValidParams(c, keyedSchema);
    const period = periodOf(params.start_at, params.end_at);
    const found = await dimensions(ctx, params.keys, period, paramsOf(params), params.limit);
    return c.json(
      found.map((d) => ({
        key: d.key,
        data: d.data.map((item) => ({
          key: item.key,
          human_key: item.humanKey,
          value: item.value,
        })),
      })),
    );
  });

  app.post("/api/v1/admin/retention", access(READ), async (c) => {
    const params = await readValidParams(c, retentionSchema);
    const period = periodOf(params.start_at, params.end_at);
    const cohorts = await retention(ctx, period, params.frequency);
    return c.json(
      cohorts.map((cohort) => ({
        period: at(cohort.period),
        frequency: cohort.frequency,
        data: cohort.data.map((d) => ({ date: at(d.date), rate: d.rate, value: String(d.value) })),
      })),
    );
  });
}
