// The joined reads (JoinedReads) answered store by store: right for any backend, and as fast as
// one lookup where the stores answer from memory (json-file). A database backend answers each in
// one statement instead (postgres/joined-reads.ts).

import type { EdgeKind, EdgeStore, JoinedReads, Storage } from "../ports.ts";

type Stores = Pick<Storage, EdgeKind | "tokens" | "apps" | "accounts" | "users" | "statuses">;

export function joinedReadsOf(stores: Stores): JoinedReads {
  return {
    async tokenHolder(tokenHash) {
      const token = await stores.tokens.findByTokenHash(tokenHash);
      if (!token) return undefined;
      const { accountId } = token;
      const [app, account, user] = await Promise.all([
        stores.apps.get(token.appId),
        accountId === null ? undefined : stores.accounts.get(accountId),
        accountId === null ? undefined : stores.users.get(accountId),
      ]);
      return { token, app, account, user };
    },
    edges(accountId, questions) {
      const answers = questions.map((q) => {
        const store = stores[q.kind] as EdgeStore<never>;
        return q.direction === "from"
          ? store.findFrom(accountId, q.ids)
          : store.findTo(accountId, q.ids);
      });
      return Promise.all(answers) as never;
    },
    async statusCounts(statusIds) {
      const [counts, favourites, quotes] = await Promise.all([
        stores.statuses.interactionCounts(statusIds),
        stores.favourites.countToMany(statusIds),
        stores.quotes.countToMany(statusIds),
      ]);
      return new Map(
        statusIds.map((id) => [
          id,
          {
            replies: counts.get(id)?.replies ?? 0,
            reblogs: counts.get(id)?.reblogs ?? 0,
            favourites: favourites.get(id) ?? 0,
            quotes: quotes.get(id) ?? 0,
          },
        ]),
      );
    },
    async accountCounts(accountIds) {
      const [facts, followers, following] = await Promise.all([
        stores.statuses.accountFacts(accountIds),
        stores.follows.countToMany(accountIds),
        stores.follows.countFromMany(accountIds),
      ]);
      return new Map(
        accountIds.map((id) => [
          id,
          {
            statuses: facts.get(id)?.count ?? 0,
            lastStatusAt: facts.get(id)?.lastStatusAt ?? null,
            followers: followers.get(id) ?? 0,
            following: following.get(id) ?? 0,
          },
        ]),
      );
    },
  };
}
