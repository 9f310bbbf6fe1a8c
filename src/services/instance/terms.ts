// The terms of service, in versions by the date each comes into effect, as Mastodon keeps them:
// the current version is the newest one already in effect, or, before the first takes effect,
// the earliest one published. Each version is one entry of the key–value store.

import { notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { type DocumentFormat, documentHtml } from "./documents.ts";

const PREFIX = ["wren", "instance", "terms"] as const;

export interface TermsVersion {
  /** YYYY-MM-DD (UTC). */
  effectiveDate: string;
  /** HTML. */
  content: string;
  updatedAt: string;
}

/** A version with where it stands among the others, as the TermsOfService entity shows it. */
export interface TermsStanding {
  version: TermsVersion;
  effective: boolean;
  /** The effective date of the next version, if any. */
  succeededBy: string | null;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function today(ctx: ServiceContext): string {
  return ctx.clock.now().toISOString().slice(0, 10);
}

/** Every version, oldest effective date first. */
export async function listTerms(ctx: ServiceContext): Promise<TermsVersion[]> {
  const entries = await ctx.storage.kv.list(PREFIX);
  return entries
    .map((e) => e.value as TermsVersion)
    .sort((a, b) => a.effectiveDate.localeCompare(b.effectiveDate));
}

function standing(ctx: ServiceContext, all: TermsVersion[], index: number): TermsStanding {
  const version = all[index] as TermsVersion;
  return {
    version,
    effective: version.effectiveDate <= today(ctx),
    succeededBy: all[index + 1]?.effectiveDate ?? null,
  };
}

/**
 * The version in force (or the first to come when none is yet); with `date`, the version that
 * takes effect that day. 404 when there is no such version.
 */
export async function findTerms(ctx: ServiceContext, date?: string): Promise<TermsStanding> {
  const all = await listTerms(ctx);
  let index: number;
  if (date !== undefined) index = all.findIndex((v) => v.effectiveDate === date);
  else {
    const now = today(ctx);
    index = all.findLastIndex((v) => v.effectiveDate <= now);
    if (index === -1 && all.length > 0) index = 0;
  }
  if (index === -1) throw notFound();
  return standing(ctx, all, index);
}

/** Publishes (or replaces) the version taking effect on `effectiveDate` (default: today). */
export async function setTerms(
  ctx: ServiceContext,
  input: { text: string; format: DocumentFormat; effectiveDate?: string | undefined },
): Promise<TermsVersion> {
  const effectiveDate = input.effectiveDate ?? today(ctx);
  if (!isCalendarDate(effectiveDate)) {
    throw unprocessable(`Not a date (YYYY-MM-DD): ${effectiveDate}`);
  }
  const version = {
    effectiveDate,
    content: documentHtml(input.text, input.format),
    updatedAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.kv.set({ key: [...PREFIX, effectiveDate], value: version, expiresAt: null });
  return version;
}

/** Withdraws the version of that date; false when there was none. */
export function removeTerms(ctx: ServiceContext, effectiveDate: string): Promise<boolean> {
  if (!isCalendarDate(effectiveDate)) {
    throw unprocessable(`Not a date (YYYY-MM-DD): ${effectiveDate}`);
  }
  return ctx.storage.kv.delete([...PREFIX, effectiveDate]);
}
