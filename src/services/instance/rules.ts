// The instance rules the operator manages (`wren instance rules add|remove`), kept in the
// key–value store so every process serves the same list. Until the operator changes them, the
// rules are the configured WREN_RULES (ids 1, 2, 3…); the first change starts from that list,
// ids included, so reports filed against it keep naming the same rules. From then on the stored
// list wins and WREN_RULES is no longer read.

import { notFound, unprocessable } from "../../domain/errors.ts";
import {
  RULE_HINT_MAX_LENGTH,
  RULE_TEXT_MAX_LENGTH,
  type Rule,
  rulesFromTexts,
} from "../../domain/instance-rules.ts";
import type { ServiceContext } from "../context.ts";

const KEY = ["wren", "instance", "rules"] as const;

interface StoredRules {
  rules: Rule[];
  /** The id the next added rule gets: ids are never reused. */
  nextId: number;
}

async function readStored(ctx: ServiceContext): Promise<StoredRules | undefined> {
  return (await ctx.storage.kv.get(KEY))?.value as StoredRules | undefined;
}

/** The rules in force: the stored list once the operator changed it, else WREN_RULES. */
export async function currentRules(ctx: ServiceContext): Promise<Rule[]> {
  return (await readStored(ctx))?.rules ?? rulesFromTexts(ctx.settings.rules);
}

/** Applies `change` to the current list atomically (retried when another process wrote first). */
async function changeRules<T>(
  ctx: ServiceContext,
  change: (current: StoredRules) => { next: StoredRules; result: T },
): Promise<T> {
  for (;;) {
    const stored = await readStored(ctx);
    const current = stored ?? {
      rules: rulesFromTexts(ctx.settings.rules),
      nextId: ctx.settings.rules.length + 1,
    };
    const { next, result } = change(current);
    const now = ctx.clock.now().toISOString();
    const wrote = await ctx.storage.kv.compareAndSet(
      stored,
      { key: KEY, value: next, expiresAt: null },
      now,
    );
    if (wrote) return result;
  }
}

function checkedText(value: string, name: string, max: number, required: boolean): string {
  const text = value.trim();
  if (required && text === "") throw unprocessable(`Validation failed: ${name} can't be blank`);
  if ([...text].length > max) {
    throw unprocessable(`Validation failed: ${name} is too long (maximum is ${max} characters)`);
  }
  return text;
}

export async function addRule(
  ctx: ServiceContext,
  input: { text: string; hint?: string | undefined },
): Promise<Rule> {
  const text = checkedText(input.text, "Text", RULE_TEXT_MAX_LENGTH, true);
  const hint = checkedText(input.hint ?? "", "Hint", RULE_HINT_MAX_LENGTH, false);
  return changeRules(ctx, (current) => {
    const rule = { id: String(current.nextId), text, hint };
    return {
      next: { rules: [...current.rules, rule], nextId: current.nextId + 1 },
      result: rule,
    };
  });
}

/** Removes a rule by id; 404 when no rule has it. */
export async function removeRule(ctx: ServiceContext, id: string): Promise<Rule> {
  return changeRules(ctx, (current) => {
    const rule = current.rules.find((r) => r.id === id);
    if (!rule) throw notFound(`No rule has the id ${id}`);
    return {
      next: { rules: current.rules.filter((r) => r !== rule), nextId: current.nextId },
      result: rule,
    };
  });
}
