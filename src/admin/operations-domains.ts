// Admin operations on server-level blocks: domain blocks and allows (`wren domain …`), IP blocks
// (`wren ip-block …`) and email domain blocks (`wren email-block …`).

import { z } from "zod";
import { DOMAIN_BLOCK_SEVERITIES, IP_BLOCK_SEVERITIES } from "../domain/server-blocks.ts";
import {
  createEmailDomainBlock,
  listEmailDomainBlocks,
  unblockEmailDomain,
} from "../services/address-blocks/email-blocks.ts";
import {
  createIpBlock,
  listIpBlocks,
  removeIpBlocksOf,
} from "../services/address-blocks/ip-blocks.ts";
import type { ServiceContext } from "../services/context.ts";
import {
  allowDomain,
  disallowDomain,
  listDomainAllows,
} from "../services/domain-blocks/domain-allows.ts";
import {
  blockDomain,
  listDomainBlocks,
  unblockDomain,
} from "../services/domain-blocks/domain-blocks.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

export const DOMAIN_OPERATIONS = {
  "domain.block": op({
    args: z.object({
      domain: z.string(),
      severity: z.enum(DOMAIN_BLOCK_SEVERITIES).optional(),
      rejectMedia: z.boolean().optional(),
      rejectReports: z.boolean().optional(),
      obfuscate: z.boolean().optional(),
      publicComment: z.string().optional(),
      privateComment: z.string().optional(),
    }),
    async run(ctx: ServiceContext, { domain, ...input }) {
      const { block, severed } = await blockDomain(ctx, domain, {
        ...input,
        severity: input.severity ?? "suspend",
      });
      return { ...block, severed };
    },
  }),
  "domain.unblock": op({
    args: z.object({ domain: z.string() }),
    async run(ctx: ServiceContext, args) {
      return { removed: await unblockDomain(ctx, args.domain) };
    },
  }),
  "domain.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return listDomainBlocks(ctx);
    },
  }),
  "domain.allow": op({
    args: z.object({ domain: z.string() }),
    async run(ctx: ServiceContext, args) {
      return allowDomain(ctx, args.domain);
    },
  }),
  "domain.disallow": op({
    args: z.object({ domain: z.string() }),
    async run(ctx: ServiceContext, args) {
      return { removed: await disallowDomain(ctx, args.domain) };
    },
  }),
  "domain.allows": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return listDomainAllows(ctx);
    },
  }),
  "ip-block.add": op({
    args: z.object({
      ip: z.string(),
      severity: z.enum(IP_BLOCK_SEVERITIES),
      comment: z.string().optional(),
      expiresIn: z.number().int().positive().optional(),
    }),
    async run(ctx: ServiceContext, args) {
      return createIpBlock(ctx, args);
    },
  }),
  "ip-block.remove": op({
    args: z.object({ ip: z.string() }),
    async run(ctx: ServiceContext, args) {
      return { removed: await removeIpBlocksOf(ctx, args.ip) };
    },
  }),
  "ip-block.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return listIpBlocks(ctx);
    },
  }),
  "email-block.add": op({
    args: z.object({ domain: z.string(), allowWithApproval: z.boolean().optional() }),
    async run(ctx: ServiceContext, args) {
      return createEmailDomainBlock(ctx, args.domain, args.allowWithApproval ?? false);
    },
  }),
  "email-block.remove": op({
    args: z.object({ domain: z.string() }),
    async run(ctx: ServiceContext, args) {
      return { removed: await unblockEmailDomain(ctx, args.domain) };
    },
  }),
  "email-block.list": op({
    args: z.object({}),
    async run(ctx: ServiceContext) {
      return listEmailDomainBlocks(ctx);
    },
  }),
};
