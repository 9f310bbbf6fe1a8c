// Building an account archive in the layout of Mastodon's (BackupService): actor.json (with
// outbox, likes and bookmarks pointing at the files beside it, and the avatar and header as
// files), outbox.json (an OrderedCollection of the Create and Announce activities of every status
// of the account, all visibilities, as ActivityPub serves them, with attachment URLs made paths
// into media_attachments/), likes.json and bookmarks.json (the statuses' ids), and the files of
// every attachment under media_attachments/ by their file-host key. Progress (statuses, then
// files) is written to the record as it goes; the zip goes to the file host under a random key.

import { getLogger } from "@logtape/logtape";
import type { Account, ImageRef } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import { ZipWriter } from "../../media/zip-writer.ts";
import { newSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";
import { walkPages } from "../paging.ts";
import {
  type AccountArchive,
  ARCHIVE_TTL_MS,
  findArchive,
  saveArchive,
} from "./archive-records.ts";
import type { ArchiveDocuments, JsonObject } from "./documents.ts";

const logger = getLogger(["wren", "archive"]);

/** How many items between two progress writes. */
const PROGRESS_EVERY = 100;
const BATCH = 200;

/** Types deflate cannot shrink: stored as they are. */
const COMPRESSED = /^(image\/(jpeg|png|gif|webp|avif)|video\/|audio\/(mpeg|mp4|ogg|aac))/;

const EXTENSIONS: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "image/avif": ".avif",
};

function extensionOf(ref: Extract<ImageRef, { kind: "hosted" }>): string {
  const fromKey = /\.[a-z0-9]{1,5}$/i.exec(ref.key)?.[0];
  return fromKey ?? EXTENSIONS[ref.contentType] ?? "";
}

function collection(id: string, items: unknown[]): JsonObject {
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    id,
    type: "OrderedCollection",
    totalItems: items.length,
    orderedItems: items,
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8");

/** Replaces the attachments' URLs by their paths in the archive (Mastodon does the same). */
function localizeAttachments(item: JsonObject, paths: ReadonlyMap<string, string>): JsonObject {
  const object = item.object;
  if (object === null || typeof object !== "object" || Array.isArray(object)) return item;
  const attachment = (object as JsonObject).attachment;
  if (attachment === undefined) return item;
  const list = Array.isArray(attachment) ? attachment : [attachment];
  const localized = list.map((a) => {
    if (a === null || typeof a !== "object") return a;
    const url = (a as JsonObject).url;
    const path = typeof url === "string" ? paths.get(url) : undefined;
    return path ? { ...(a as JsonObject), url: path } : a;
  });
  return {
    ...item,
    object: {
      ...(object as JsonObject),
      attachment: Array.isArray(attachment) ? localized : localized[0],
    },
  };
}

class ProgressWriter {
  private archive: AccountArchive;
  private lastWritten = 0;
  private readonly ctx: ServiceContext;

  constructor(ctx: ServiceContext, archive: AccountArchive) {
    this.ctx = ctx;
    this.archive = archive;
  }

  get current(): AccountArchive {
    return this.archive;
  }

  async set(changes: Partial<AccountArchive>, force = false): Promise<void> {
    this.archive = { ...this.archive, ...changes };
    if (force || this.archive.done - this.lastWritten >= PROGRESS_EVERY) {
      this.lastWritten = this.archive.done;
      await saveArchive(this.ctx, this.archive);
    }
  }
}

async function ownStatuses(ctx: ServiceContext, accountId: string): Promise<Status[]> {
  const out: Status[] = [];
  for await (const status of walkPages((page) =>
    ctx.storage.statuses.listByAccount(accountId, page),
  )) {
    if (!status.deleted) out.push(status);
  }
  return out;
}

async function targetUris(
  ctx: ServiceContext,
  edges: AsyncIterable<{ targetId: string }>,
): Promise<string[]> {
  const ids: string[] = [];
  for await (const edge of edges) ids.push(edge.targetId);
  const uris: string[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const statuses = await ctx.storage.statuses.getMany(ids.slice(i, i + BATCH));
    for (const id of ids.slice(i, i + BATCH)) {
      const status = statuses.get(id);
      if (status && !status.deleted) uris.push(status.uri);
    }
  }
  return uris;
}

/** The actor document, with its avatar and header as files of the archive. */
async function addActor(
  ctx: ServiceContext,
  zip: ZipWriter,
  account: Account,
  documents: ArchiveDocuments,
): Promise<void> {
  const actor = await documents.actor(account);
  for (const [field, name] of [
    ["icon", "avatar"],
    ["image", "header"],
  ] as const) {
    const ref = field === "icon" ? account.avatar : account.header;
    if (ref?.kind !== "hosted") continue;
    const bytes = await ctx.files.get(ref.key);
    if (!bytes) continue;
    const file = `${name}${extensionOf(ref)}`;
    zip.add(file, bytes, { compress: !COMPRESSED.test(ref.contentType) });
    const image = actor[field];
    if (image && typeof image === "object") actor[field] = { ...(image as JsonObject), url: file };
  }
  actor.outbox = "outbox.json";
  actor.likes = "likes.json";
  actor.bookmarks = "bookmarks.json";
  zip.add("actor.json", json(actor));
}

export interface BuildOptions {
  onProgress?: (done: number, total: number) => void;
  /**
   * Only build an archive still waiting, taken atomically (`wren archive` building it in its own
   * process while a server's job may take it too); the one who lost gets the record as it is.
   */
  onlyWaiting?: boolean;
}

/**
 * Builds the archive `archiveId` of `accountId` (the archive.build job, or `wren archive`). A
 * record already ready (the job ran twice) is left alone; one left building by a crash is built
 * again by the job's retry.
 */
export async function buildArchive(
  ctx: ServiceContext,
  accountId: string,
  archiveId: string,
  options: BuildOptions = {},
): Promise<AccountArchive | undefined> {
  const { onProgress } = options;
  const found = await findArchive(ctx, accountId, archiveId);
  if (!found || found.state === "ready") return found;
  if (options.onlyWaiting) {
    if (found.state !== "waiting") return found;
    const claimed = { ...found, state: "building" as const };
    const now = ctx.clock.now().toISOString();
    const key = ["account-archive", accountId, archiveId];
    if (
      !(await ctx.storage.kv.compareAndSet(found, { key, value: claimed, expiresAt: null }, now))
    ) {
      return findArchive(ctx, accountId, archiveId);
    }
  }
  const account = await ctx.storage.accounts.get(accountId);
  const documents = ctx.archiveDocuments;
  if (!account) {
    await saveArchive(ctx, { ...found, state: "failed", error: "The account no longer exists" });
    return undefined;
  }
  if (!documents) throw new Error("Archives are built by a process with the federation attached");
  const progress = new ProgressWriter(ctx, found);
  const step = async (changes: Partial<AccountArchive>, force = false) => {
    await progress.set(changes, force);
    onProgress?.(progress.current.done, progress.current.total);
  };

  const statuses = await ownStatuses(ctx, accountId);
  const mediaIds = [...new Set(statuses.flatMap((s) => (s.reblogOfId === null ? s.mediaIds : [])))];
  await step(
    { state: "building", done: 0, total: statuses.length + mediaIds.length, error: null },
    true,
  );

  const zip = new ZipWriter(ctx.clock.now());
  const paths = new Map<string, string>();
  let done = 0;
  for (let i = 0; i < mediaIds.length; i += BATCH) {
    const media = await ctx.storage.media.getMany(mediaIds.slice(i, i + BATCH));
    for (const attachment of media.values()) {
      const key = attachment.fileKey;
      const bytes = key ? await ctx.files.get(key) : null;
      if (key && bytes) {
        const path = `media_attachments/${key}`;
        zip.add(path, bytes, { compress: !COMPRESSED.test(attachment.contentType) });
        paths.set(ctx.files.url(key), path);
      } else if (key) {
        logger.warn("Archive {archiveId}: the file {key} is missing", { archiveId, key });
      }
      await step({ done: ++done });
    }
  }
  // Each attachment counted once, even when its file was missing.
  done = mediaIds.length;

  const items: JsonObject[] = [];
  for (let i = 0; i < statuses.length; i += BATCH) {
    const batch = statuses.slice(i, i + BATCH);
    for (const activity of await documents.activities(account, batch)) {
      const { "@context": _context, ...item } = activity;
      items.push(localizeAttachments(item, paths));
    }
    done += batch.length;
    await step({ done });
  }
  zip.add("outbox.json", json(collection("outbox.json", items)));
  const walkEdges = (store: "favourites" | "bookmarks") =>
    walkPages((page) => ctx.storage[store].listFrom(accountId, page));
  zip.add(
    "likes.json",
    json(collection("likes.json", await targetUris(ctx, walkEdges("favourites")))),
  );
  zip.add(
    "bookmarks.json",
    json(collection("bookmarks.json", await targetUris(ctx, walkEdges("bookmarks")))),
  );
  await addActor(ctx, zip, account, documents);

  const bytes = zip.finish();
  const fileKey = `archives/${accountId}/${newSecret(24)}.zip`;
  await ctx.files.put(fileKey, bytes, "application/zip");
  const now = ctx.clock.now();
  await step(
    {
      state: "ready",
      fileKey,
      size: bytes.length,
      finishedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ARCHIVE_TTL_MS).toISOString(),
    },
    true,
  );
  return progress.current;
}

/** Marks an archive whose job gave up as failed, so its page stops waiting. */
export async function failArchive(
  ctx: ServiceContext,
  accountId: string,
  archiveId: string,
  error: string,
): Promise<void> {
  const found = await findArchive(ctx, accountId, archiveId);
  if (found && found.state !== "ready")
    await saveArchive(ctx, { ...found, state: "failed", error });
}

/** The finished archive's bytes, for its owner. */
export async function archiveBytes(
  ctx: ServiceContext,
  archive: AccountArchive,
): Promise<Uint8Array | null> {
  if (archive.state !== "ready" || !archive.fileKey) return null;
  return ctx.files.get(archive.fileKey);
}
