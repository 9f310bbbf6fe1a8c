// The storage contract: behaviour every backend must show, written against the Storage ports
// only. A backend's test file calls runStorageContract with a way to open a fresh, empty store;
// the parts live in one file per area.

import { afterEach, beforeEach, describe } from "node:test";
import type { Storage } from "../ports.ts";
import { accountContract } from "./accounts.ts";
import { announcementContract } from "./announcements.ts";
import { authContract } from "./auth.ts";
import { collectionContract } from "./collections.ts";
import type { ContractContext } from "./context.ts";
import { conversationContract } from "./conversations.ts";
import { coordinationContract } from "./coordination.ts";
import { customEmojiContract } from "./custom-emojis.ts";
import { edgeContract } from "./edges.ts";
import { filterContract } from "./filters.ts";
import { idempotencyContract } from "./idempotency.ts";
import { jobContract } from "./jobs.ts";
import { joinedReadsContract } from "./joined-reads.ts";
import { kvContract } from "./kv.ts";
import { listContract } from "./lists.ts";
import { markerContract } from "./markers.ts";
import { mediaContract } from "./media.ts";
import { notificationContract } from "./notifications.ts";
import { persistenceContract } from "./persistence.ts";
import { featurePersistenceContract } from "./persistence-features.ts";
import { relationPersistenceContract } from "./persistence-relations.ts";
import { pollContract } from "./polls.ts";
import { pushSubscriptionContract } from "./push-subscriptions.ts";
import { reportContract } from "./reports.ts";
import { scheduledStatusContract } from "./scheduled-statuses.ts";
import { statusEditContract } from "./status-edits.ts";
import { statusFilterContract } from "./status-filters.ts";
import { statusContract } from "./statuses.ts";
import { threadContract } from "./threads.ts";
import { timelineContract } from "./timelines.ts";
import { versionContract } from "./version.ts";

export interface ContractSubject {
  /** A freshly opened, empty storage. */
  storage: Storage;
  /** Opens the same data again; the suite closes the previous storage first. */
  reopen: () => Promise<Storage>;
  /** Removes the data (called after the suite has closed the storage). */
  cleanup: () => Promise<void>;
  /** Opens a second storage on the same data while the first stays open (another process). */
  openPeer?: () => Promise<Storage>;
}

export function runStorageContract(name: string, open: () => Promise<ContractSubject>): void {
  describe(`storage contract: ${name}`, () => {
    let subject: ContractSubject;
    let storage: Storage;
    let peers: Storage[] = [];

    beforeEach(async () => {
      subject = await open();
      storage = subject.storage;
    });

    afterEach(async () => {
      await Promise.all(peers.map((peer) => peer.close()));
      peers = [];
      await storage.close();
      await subject.cleanup();
    });

    const context: ContractContext = {
      get storage() {
        return storage;
      },
      async reopen() {
        await storage.close();
        storage = await subject.reopen();
        return storage;
      },
      async peer() {
        if (!subject.openPeer) return storage;
        const peer = await subject.openPeer();
        peers.push(peer);
        return peer;
      },
    };

    accountContract(context);
    authContract(context);
    joinedReadsContract(context);
    statusContract(context);
    statusFilterContract(context);
    threadContract(context);
    statusEditContract(context);
    timelineContract(context);
    edgeContract(context);
    idempotencyContract(context);
    pollContract(context);
    notificationContract(context);
    announcementContract(context);
    customEmojiContract(context);
    reportContract(context);
    scheduledStatusContract(context);
    markerContract(context);
    pushSubscriptionContract(context);
    listContract(context);
    collectionContract(context);
    filterContract(context);
    conversationContract(context);
    jobContract(context);
    mediaContract(context);
    kvContract(context);
    coordinationContract(context);
    persistenceContract(context);
    relationPersistenceContract(context);
    featurePersistenceContract(context);
    versionContract(context);
  });
}
