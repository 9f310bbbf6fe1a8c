// The admin API's IP blocks, email domain blocks and canonical email blocks (Mastodon's
// /api/v1/admin/ip_blocks, email_domain_blocks, canonical_email_blocks): for admins, who hold
// `manage_blocks`, with a token holding the matching admin:read:… / admin:write:… scope. Rules
// in services/address-blocks/; enforced at sign-up and, for no_access, on every request.

import type { Hono } from "hono";
import { z } from "zod";
import type { EmailDomainBlock } from "../../../../domain/server-blocks.ts";
import { IP_BLOCK_SEVERITIES } from "../../../../domain/server-blocks.ts";
import {
  serializeAdminCanonicalEmailBlock,
  serializeAdminEmailDomainBlock,
  serializeAdminIpBlock,
} from "../../../../serialization/mastodon/admin-server-blocks.ts";
import {
  createCanonicalEmailBlock,
  createEmailDomainBlock,
  emailDomainBlockHistory,
  getCanonicalEmailBlock,
  getEmailDomainBlock,
  listCanonicalEmailBlocks,
  listEmailDomainBlocks,
  matchingCanonicalEmailBlocks,
  removeCanonicalEmailBlock,
  removeEmailDomainBlock,
} from "../../../../services/address-blocks/email-blocks.ts";
import {
  createIpBlock,
  getIpBlock,
  listIpBlocks,
  removeIpBlock,
  updateIpBlock,
} from "../../../../services/address-blocks/ip-blocks.ts";
import type { ServiceContext } from "../../../../services/context.ts";
import type { HttpDeps, HttpEnv } from "../../../env.ts";
import type { Access } from "../../../middleware/access.ts";
import { readValidParams } from "../../../params.ts";
import { booleanParam, integerParam } from "../../../schemas.ts";
import { UPDATE_METHODS } from "../../../update-methods.ts";
import { answerRecordPage } from "./answer-page.ts";

const rule = (scope: string) => ({ scopes: [scope], permission: "manage_blocks" }) as const;

const ipFields = {
  ip: z.string().max(100).optional(),
  severity: z.enum(IP_BLOCK_SEVERITIES).optional(),
  comment: z.string().max(1000).optional(),
  // Seconds; empty: no end.
  expires_in: z
    .union([integerParam, z.literal("")])
    .nullable()
    .optional(),
};
const ipSchema = z.object(ipFields);
const emailDomainSchema = z.object({
  domain: z.string().max(255).optional(),
  allow_with_approval: booleanParam.optional(),
});
const canonicalSchema = z.object({
  email: z.string().max(320).optional(),
  canonical_email_hash: z.string().max(100).optional(),
});
const testSchema = z.object({ email: z.string().max(320).optional() });

const IPS = "/api/v1/admin/ip_blocks";
const EMAIL_DOMAINS = "/api/v1/admin/email_domain_blocks";
const CANONICAL = "/api/v1/admin/canonical_email_blocks";
const ID = ":id{[0-9]+}";

function expiresIn(value: number | "" | null | undefined): number | null | undefined {
  return value === "" ? null : value;
}

async function renderEmailDomainBlock(ctx: ServiceContext, block: EmailDomainBlock) {
  return serializeAdminEmailDomainBlock(block, await emailDomainBlockHistory(ctx, block.domain));
}

export function adminAddressBlockRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const READ_IPS = rule("admin:read:ip_blocks");
  const WRITE_IPS = rule("admin:write:ip_blocks");
  const READ_EMAILS = rule("admin:read:email_domain_blocks");
  const WRITE_EMAILS = rule("admin:write:email_domain_blocks");
  const READ_CANONICAL = rule("admin:read:canonical_email_blocks");
  const WRITE_CANONICAL = rule("admin:write:canonical_email_blocks");

  app.get(IPS, access(READ_IPS), async (c) =>
    answerRecordPage(c, deps, await listIpBlocks(ctx), serializeAdminIpBlock),
  );
  app.post(IPS, access(WRITE_IPS), async (c) => {
    const params = await readValidParams(c, ipSchema);
    const block = await createIpBlock(ctx, {
      ip: params.ip,
      severity: params.severity,
      comment: params.comment,
      expiresIn: expiresIn(params.expires_in),
    });
    return c.json(serializeAdminIpBlock(block));
  });
  app.get(`${IPS}/${ID}`, access(READ_IPS), async (c) =>
    c.json(serializeAdminIpBlock(await getIpBlock(ctx, c.req.param("id")))),
  );
  app.on(UPDATE_METHODS, `${IPS}/${ID}`, access(WRITE_IPS), async (c) => {
    const params = await readValidParams(c, ipSchema);
    const block = await updateIpBlock(ctx, c.req.param("id"), {
      ip: params.ip,
      severity: params.severity,
      comment: params.comment,
      expiresIn: expiresIn(params.expires_in),
    });
    return c.json(serializeAdminIpBlock(block));
  });
  app.delete(`${IPS}/${ID}`, access(WRITE_IPS), async (c) => {
    await removeIpBlock(ctx, c.req.param("id"));
    return c.json({});
  });

  app.get(EMAIL_DOMAINS, access(READ_EMAILS), async (c) => {
    const blocks = await listEmailDomainBlocks(ctx);
    const histories = new Map(
      await Promise.all(
        blocks.map(async (b) => [b.id, await emailDomainBlockHistory(ctx, b.domain)] as const),
      ),
    );
    return answerRecordPage(c, deps, blocks, (b) =>
      serializeAdminEmailDomainBlock(b, histories.get(b.id) ?? []),
    );
  });
  app.post(EMAIL_DOMAINS, access(WRITE_EMAILS), async (c) => {
    const params = await readValidParams(c, emailDomainSchema);
    const block = await createEmailDomainBlock(ctx, params.domain, params.allow_with_approval);
    return c.json(await renderEmailDomainBlock(ctx, block));
  });
  app.get(`${EMAIL_DOMAINS}/${ID}`, access(READ_EMAILS), async (c) =>
    c.json(await renderEmailDomainBlock(ctx, await getEmailDomainBlock(ctx, c.req.param("id")))),
  );
  app.delete(`${EMAIL_DOMAINS}/${ID}`, access(WRITE_EMAILS), async (c) => {
    await removeEmailDomainBlock(ctx, c.req.param("id"));
    return c.json({});
  });

  app.get(CANONICAL, access(READ_CANONICAL), async (c) =>
    answerRecordPage(
      c,
      deps,
      await listCanonicalEmailBlocks(ctx),
      serializeAdminCanonicalEmailBlock,
    ),
  );
  app.post(CANONICAL, access(WRITE_CANONICAL), async (c) => {
    const params = await readValidParams(c, canonicalSchema);
    const block = await createCanonicalEmailBlock(ctx, {
      email: params.email,
      canonicalEmailHash: params.canonical_email_hash,
    });
    return c.json(serializeAdminCanonicalEmailBlock(block));
  });
  // Reading, though a POST (the address stays out of logs and URLs): the read scope, as Mastodon.
  app.post(`${CANONICAL}/test`, access(READ_CANONICAL), async (c) => {
    const { email } = await readValidParams(c, testSchema);
    const found = email ? await matchingCanonicalEmailBlocks(ctx, email) : [];
    return c.json(found.map(serializeAdminCanonicalEmailBlock));
  });
  app.get(`${CANONICAL}/${ID}`, access(READ_CANONICAL), async (c) =>
    c.json(serializeAdminCanonicalEmailBlock(await getCanonicalEmailBlock(ctx, c.req.param("id")))),
  );
  app.delete(`${CANONICAL}/${ID}`, access(WRITE_CANONICAL), async (c) => {
    await removeCanonicalEmailBlock(ctx, c.req.param("id"));
    return c.json({});
  });
}
