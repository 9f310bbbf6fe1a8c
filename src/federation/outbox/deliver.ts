// Hands an activity to Fedify for delivery: signed as the local account, to the inboxes of the
// remote accounts given (shared inboxes preferred, so a server with many followers gets one
// copy), through the durable queue, in order per object and server (ordering-key.ts). Suspended
// accounts and admin-blocked domains get nothing.

import type { Context, Federation } from "@fedify/fedify";
import type { Activity, Recipient } from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import { type Account, isLocal } from "../../domain/account.ts";
import type { ServiceContext } from "../../services/context.ts";
import { isDomainBlocked } from "../../services/domain-blocks/domain-blocks.ts";
import { instanceActorIdentifier } from "../instance-actor.ts";
import { orderingKeyOf } from "./ordering-key.ts";

const logger = getLogger(["wren", "federation", "outbox"]);

export interface Outbox {
  ctx: ServiceContext;
  federation: Federation<ServiceContext>;
  /** A Fedify context outside any request (ids and signing come from the public URL). */
  context(): Context<ServiceContext>;
  /**
   * Queues the activity for the remote accounts among `recipients`, signed as `sender` (a local
   * account). Resolves once the deliveries are queued, not delivered.
   */
  send(sender: Account, recipients: readonly Account[], activity: Activity): Promise<void>;
  /** As `send`, signed as the instance actor (acts of the server itself, such as reports). */
  sendAsInstance(recipients: readonly Account[], activity: Activity): Promise<void>;
  /** The instance actor's id. */
  instanceActorUri(): string;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/**
 * Whether deliveries may go to this account: remote, alive, and on no blocked domain.
 * `blocked` answers per host, asked once per host for a whole fan-out (its followers share few).
 */
async function deliverable(
  blocked: (host: string) => Promise<boolean>,
  account: Account,
): Promise<boolean> {
  if (isLocal(account) || account.suspended || !account.remote) return false;
  const hosts = new Set<string | null>([
    account.domain,
    hostOf(account.remote.inbox),
    account.remote.sharedInbox === null ? account.domain : hostOf(account.remote.sharedInbox),
  ]);
  if (hosts.has(null)) return false;
  for (const host of hosts) if (await blocked(host as string)) return false;
  return true;
}

function toRecipient(account: Account): Recipient | null {
  const remote = account.remote;
  if (!remote) return null;
  try {
    return {
      id: new URL(account.uri),
      inboxId: new URL(remote.inbox),
      endpoints: { sharedInbox: remote.sharedInbox === null ? null : new URL(remote.sharedInbox) },
    };
  } catch {
    // A stored URL that does not parse: nothing can be delivered to that account.
    return null;
  }
}

export function createOutbox(federation: Federation<ServiceContext>, ctx: ServiceContext): Outbox {
  const context = () => federation.createContext(new URL(ctx.settings.publicUrl), ctx);
  async function queue(
    identifier: string,
    recipients: readonly Account[],
    activity: Activity,
  ): Promise<void> {
    const unique = [...new Map(recipients.map((a) => [a.id, a])).values()];
    const targets: Recipient[] = [];
    const answers = new Map<string, Promise<boolean>>();
    const blocked = (host: string) => {
      let answer = answers.get(host);
      if (!answer) {
        answer = isDomainBlocked(ctx, host);
        answers.set(host, answer);
      }
      return answer;
    };
    for (const account of unique) {
      if (!(await deliverable(blocked, account))) continue;
      const recipient = toRecipient(account);
      if (recipient) targets.push(recipient);
    }
    if (targets.length === 0) return;
    logger.debug("Queueing {type} {id} for {count} recipients", {
      type: activity.constructor.name,
      id: activity.id?.href,
      count: targets.length,
    });
    const orderingKey = await orderingKeyOf(activity);
    await context().sendActivity({ identifier }, targets, activity, {
      preferSharedInbox: true,
      ...(orderingKey === undefined ? {} : { orderingKey }),
    });
  }
  const instanceIdentifier = () => instanceActorIdentifier(ctx.settings);

  return {
    ctx,
    federation,
    context,
    async send(sender, recipients, activity) {
      if (!isLocal(sender)) return;
      await queue(sender.username, recipients, activity);
    },
    sendAsInstance: (recipients, activity) => queue(instanceIdentifier(), recipients, activity),
    instanceActorUri: () => context().getActorUri(instanceIdentifier()).href,
  };
}
