// Admin operations on the instance's rules and documents (`wren instance …`).

import { z } from "zod";
import type { ServiceContext } from "../services/context.ts";
import {
  clearDocument,
  DOCUMENT_KINDS,
  getDocument,
  setDocument,
} from "../services/instance/documents.ts";
import { addRule, currentRules, removeRule } from "../services/instance/rules.ts";
import { listTerms, removeTerms, setTerms } from "../services/instance/terms.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

const format = z.enum(["html", "text"]);
const kind = z.enum(DOCUMENT_KINDS);

export const INSTANCE_OPERATIONS = {
  "instance.rules.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return currentRules(ctx);
    },
  }),
  "instance.rules.add": op({
    args: z.object({ text: z.string(), hint: z.string().optional() }),
    async run(ctx: ServiceContext, args) {
      return addRule(ctx, args);
    },
  }),
  "instance.rules.remove": op({
    args: z.object({ id: z.string() }),
    async run(ctx: ServiceContext, args) {
      return removeRule(ctx, args.id);
    },
  }),
  "instance.document.set": op({
    args: z.object({ kind, text: z.string(), format }),
    async run(ctx: ServiceContext, args) {
      return setDocument(ctx, args.kind, args);
    },
  }),
  "instance.document.get": op({
    args: z.object({ kind }),
    async run(ctx: ServiceContext, args) {
      return (await getDocument(ctx, args.kind)) ?? null;
    },
  }),
  "instance.document.clear": op({
    args: z.object({ kind }),
    async run(ctx: ServiceContext, args) {
      return { removed: await clearDocument(ctx, args.kind) };
    },
  }),
  "instance.terms.set": op({
    args: z.object({ text: z.string(), format, effectiveDate: z.string().optional() }),
    async run(ctx: ServiceContext, args) {
      return setTerms(ctx, args);
    },
  }),
  "instance.terms.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return listTerms(ctx);
    },
  }),
  "instance.terms.remove": op({
    args: z.object({ effectiveDate: z.string() }),
    async run(ctx: ServiceContext, args) {
      return { removed: await removeTerms(ctx, args.effectiveDate) };
    },
  }),
};
