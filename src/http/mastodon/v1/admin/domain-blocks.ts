// The admin API's domain blocks and domain allows (Mastodon's /api/v1/admin/domain_blocks and
// /api/v1/admin/domain_allows): for admins, who hold `manage_federation`, with a token holding
// admin:read:domain_blocks / admin:write:domain_blocks (or …domain_allows). Rules in
// services/domain-blocks/.

import type { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../../domain/errors.ts";
import { DOMAIN_BLOCK_SEVERITIES } from "../../../../domain/server-blocks.ts";
import {
  serializeAdminDomainAllow,
  serializeAdminDomainBlock,
} from "../../../../serialization/mastodon/admin-server-blocks.ts";
import {
  allowDomain,
  getDomainAllow,
  listDomainAllows,
  removeDomainAllow,
} from "../../../../services/domain-blocks/domain-allows.ts";
import {
  conflictingDomainBlock,
  createDomainBlock,
  type DomainBlockInput,
  getDomainBlock,
  listDomainBlocks,
  removeDomainBlock,
  updateDomainBlock,
} from "../../../../services/domain-blocks/domain-blocks.ts";
import type { HttpDeps, HttpEnv } from "../../../env.ts";
import type { Access } from "../../../middleware/access.ts";
import { readValidParams } from "../../../params.ts";
import { booleanParam } from "../../../schemas.ts";
import { UPDATE_METHODS } from "../../../update-methods.ts";
import { answerRecordPage } from "./answer-page.ts";

const rule = (scope: string) => ({ scopes: [scope], permission: "manage_federation" }) as const;
const READ_BLOCKS = rule("admin:read:domain_blocks");
const WRITE_BLOCKS = rule("admin:write:domain_blocks");
const READ_ALLOWS = rule("admin:read:domain_allows");
const WRITE_ALLOWS = rule("admin:write:domain_allows");

const blockFields = {
  severity: z.enum(DOMAIN_BLOCK_SEVERITIES).optional(),
  reject_media: booleanParam.optional(),
  reject_reports: booleanParam.optional(),
  private_comment: z.string().max(1000).nullable().optional(),
  public_comment: z.string().max(1000).nullable().optional(),
  obfuscate: booleanParam.optional(),
};
const createSchema = z.object({ domain: z.string().max(255).optional(), ...blockFields });
const updateSchema = z.object(blockFields);
const allowSchema = z.object({ domain: z.string().max(255).optional() });

function inputOf(params: z.infer<typeof updateSchema>): DomainBlockInput {
  return {
    severity: params.severity,
    rejectMedia: params.reject_media,
    rejectReports: params.reject_reports,
    privateComment: params.private_comment,
    publicComment: params.public_comment,
    obfuscate: params.obfuscate,
  };
}

function blankDomain(domain: string | undefined): string {
  if (domain === undefined || domain.trim() === "") {
    throw new AppError(422, "Validation failed: Domain can't be blank");
  }
  return domain;
}

const BLOCKS = "/api/v1/admin/domain_blocks";
const ALLOWS = "/api/v1/admin/domain_allows";
const ID = ":id{[0-9]+}";

export function adminDomainBlockRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get(BLOCKS, access(READ_BLOCKS), async (c) =>
    answerRecordPage(c, deps, await listDomainBlocks(ctx), serializeAdminDomainBlock),
  );

  app.post(BLOCKS, access(WRITE_BLOCKS), async (c) => {
    const params = await readValidParams(c, createSchema);
    const domain = blankDomain(params.domain);
    const existing = await conflictingDomainBlock(ctx, domain, params.severity ?? "silence");
    if (existing) {
      // Mastodon's answer names the block in the way.
      return c.json(
        {
          error: `You have already imposed stricter limits on ${existing.domain}.`,
          existing_domain_block: serializeAdminDomainBlock(existing),
        },
        422,
      );
    }
    const { block } = await createDomainBlock(ctx, domain, inputOf(params));
    return c.json(serializeAdminDomainBlock(block));
  });

  app.get(`${BLOCKS}/${ID}`, access(READ_BLOCKS), async (c) =>
    c.json(serializeAdminDomainBlock(await getDomainBlock(ctx, c.req.param("id")))),
  );

  app.on(UPDATE_METHODS, `${BLOCKS}/${ID}`, access(WRITE_BLOCKS), async (c) => {
    const params = await readValidParams(c, updateSchema);
    const block = await updateDomainBlock(ctx, c.req.param("id"), inputOf(params));
    return c.json(serializeAdminDomainBlock(block));
  });

  app.delete(`${BLOCKS}/${ID}`, access(WRITE_BLOCKS), async (c) => {
    await removeDomainBlock(ctx, c.req.param("id"));
    return c.json({});
  });

  app.get(ALLOWS, access(READ_ALLOWS), async (c) =>
    answerRecordPage(c, deps, await listDomainAllows(ctx), serializeAdminDomainAllow),
  );

  app.post(ALLOWS, access(WRITE_ALLOWS), async (c) => {
    const params = await readValidParams(c, allowSchema);
    return c.json(serializeAdminDomainAllow(await allowDomain(ctx, blankDomain(params.domain))));
  });

  app.get(`${ALLOWS}/${ID}`, access(READ_ALLOWS), async (c) =>
    c.json(serializeAdminDomainAllow(await getDomainAllow(ctx, c.req.param("id")))),
  );

  app.delete(`${ALLOWS}/${ID}`, access(WRITE_ALLOWS), async (c) => {
    await removeDomainAllow(ctx, c.req.param("id"));
    return c.json({});
  });
}
