// Prepares a data directory for a bench run: a viewer with a token, authors, follows and
// `statuses` statuses. Each kind of record is made once through the services (so it has the
// real shape) and then cloned straight into storage, which is what makes a million statuses
// take minutes rather than hours.

import { loadConfig } from "../../src/config/load.ts";
import type { Account } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { followAccount } from "../../src/services/graph/follow.ts";
import { createPersonalToken } from "../../src/services/oauth/create-personal-token.ts";
import { createStatus } from "../../src/services/statuses/create-status.ts";
import { createServices } from "../../src/wiring/services.ts";
import { openStorage } from "../../src/wiring/storage.ts";
import { RELAXED_LIMITS } from "../../test/helpers/server.ts";

export interface SeedSpec {
  statuses: number;
  authors: number;
  /** Extra statuses of the viewer, to favourite and to read as "a status". */
  ownStatuses?: number;
  /** Accounts nobody follows yet, for the follow scenario. */
  followTargets?: number;
}

export interface Seeded {
  token: string;
  viewerId: string;
  authorIds: string[];
  statusId: string;
  /** Statuses that nobody favourited yet (the favourite scenario walks them). */
  favouriteTargets: string[];
  followTargets: string[];
}

const BATCH = 2000;

async function inBatches<T>(items: readonly T[], write: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) {
    await Promise.all(items.slice(i, i + BATCH).map(write));
  }
}

export function benchEnv(dataDir: string, port: number): Record<string, string> {
  return {
    WREN_DATA_DIR: dataDir,
    WREN_HOST: "127.0.0.1",
    WREN_PORT: String(port),
    WREN_PUBLIC_URL: `http://127.0.0.1:${port}`,
    WREN_LOG_LEVEL: "error",
    // The load comes from one address and one token: the limits would measure themselves.
    WREN_RATE_LIMIT_REQUESTS: "1000000000",
    ...RELAXED_LIMITS,
    WREN_MAX_STATUS_CHARACTERS: "5000",
  };
}

/** The local account every scenario acts as, with a personal token (read write follow). */
export async function createViewer(
  ctx: ServiceContext,
  username = "viewer",
): Promise<{ viewer: Account; secret: string }> {
  const { account: viewer } = await createLocalAccount(ctx, {
    username,
    email: `${username}@bench.invalid`,
    password: "bench password that is long enough",
  });
  const { secret } = await createPersonalToken(ctx, {
    username,
    scopes: ["read", "write", "follow"],
  });
  return { viewer, secret };
}

export async function seed(env: Record<string, string>, spec: SeedSpec): Promise<Seeded> {
  const config = loadConfig(env);
  const storage = await openStorage(config);
  try {
    const { ctx } = createServices(config, storage);
    const { viewer, secret } = await createViewer(ctx);
    const template = await createStatus(ctx, {
      accountId: viewer.id,
      applicationId: null,
      text: "Hello from the bench, #wren @viewer https://example.com/some/link",
      visibility: "public",
    });

    const cloneAccount = (name: string): Account => ({
      ...viewer,
      id: ctx.ids.next(),
      username: name,
      displayName: name,
      uri: `${config.publicUrl}/users/${name}`,
      url: `${config.publicUrl}/@${name}`,
    });
    const authors = Array.from({ length: spec.authors }, (_, i) => cloneAccount(`author${i}`));
    const targets = Array.from({ length: spec.followTargets ?? 0 }, (_, i) =>
      cloneAccount(`target${i}`),
    );
    await inBatches([...authors, ...targets], (a) => storage.accounts.put(a));
    // The viewer follows half the authors: home mixes followed and unfollowed authors' posts.
    for (const author of authors.slice(0, Math.ceil(authors.length / 2))) {
      await followAccount(ctx, viewer.id, author.id);
    }

    const cloneStatus = (author: Account, n: number): Status => {
      const id = ctx.ids.next();
      return {
        ...template,
        id,
        accountId: author.id,
        uri: `${author.uri}/statuses/${id}`,
        url: `${author.url}/${id}`,
        text: `${template.text} ${n}`,
        contentHtml: template.contentHtml.replace("</p>", ` ${n}</p>`),
        conversationId: id,
        mentionIds: [],
      };
    };
    const statuses = Array.from({ length: spec.statuses }, (_, n) =>
      cloneStatus(authors[n % authors.length] as Account, n),
    );
    await inBatches(statuses, (s) => storage.statuses.put(s));
    const own = Array.from({ length: spec.ownStatuses ?? 0 }, (_, n) => cloneStatus(viewer, n));
    await inBatches(own, (s) => storage.statuses.put(s));

    return {
      token: secret,
      viewerId: viewer.id,
      authorIds: authors.map((a) => a.id),
      statusId: template.id,
      favouriteTargets: own.map((s) => s.id),
      followTargets: targets.map((a) => a.id),
    };
  } finally {
    await storage.close();
  }
}

/** A local account with a token (read write follow), as the streaming scenario uses them. */
export interface SeededReader {
  username: string;
  id: string;
  token: string;
}

/**
 * `count` local accounts with a token each, and a `herald` who posts: one made through the
 * services (one password hash), the others cloned from it with their own user record, each token
 * issued as `wren token create` does.
 */
export async function seedReaders(
  env: Record<string, string>,
  count: number,
): Promise<{ readers: SeededReader[]; herald: SeededReader }> {
  const config = loadConfig(env);
  const storage = await openStorage(config);
  try {
    const { ctx } = createServices(config, storage);
    const { viewer: account, secret } = await createViewer(ctx, "herald");
    const user = await storage.users.get(account.id);
    if (!user) throw new Error("the herald has no user record");
    const readers = Array.from({ length: count }, (_, i) => {
      const username = `reader${i}`;
      return {
        account: {
          ...account,
          id: ctx.ids.next(),
          username,
          displayName: username,
          uri: `${config.publicUrl}/users/${username}`,
          url: `${config.publicUrl}/@${username}`,
        },
        username,
      };
    });
    await inBatches(readers, async ({ account: reader, username }) => {
      await storage.accounts.put(reader);
      await storage.users.put({
        ...user,
        accountId: reader.id,
        email: `${username}@bench.invalid`,
      });
    });
    const tokens: SeededReader[] = [];
    for (let i = 0; i < readers.length; i += 100) {
      tokens.push(
        ...(await Promise.all(
          readers.slice(i, i + 100).map(async ({ account: reader, username }) => {
            const { secret: token } = await createPersonalToken(ctx, {
              username,
              scopes: ["read", "write", "follow"],
            });
            return { username, id: reader.id, token };
          }),
        )),
      );
    }
    return { readers: tokens, herald: { username: "herald", id: account.id, token: secret } };
  } finally {
    await storage.close();
  }
}
