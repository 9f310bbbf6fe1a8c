// Admin operations on domain blocks (`wren domain block|unblock|list`).

import { z } from "zod";
import type { ServiceContext } from "../services/context.ts";
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
    args: z.object({ domain: z.string() }),
    async run(ctx: ServiceContext, args) {
      const { block, severed } = await blockDomain(ctx, args.domain);
      return { domain: block.domain, createdAt: block.createdAt, severed };
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
};
