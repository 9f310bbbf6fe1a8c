// Building an account archive in the layout of Mastodon's (BackupService): actor.json (with
// outbox, likes and bookmarks pointing at the files beside it, and the avatar and header as
// files), outbox.json (an OrderedCollection of the Create and Announce activities of every status
// of the account, all visibilities, as ActivityPub serves them, with attachment URLs made paths
// into media_attachments/), likes.json and bookmarks.json (the statuses' ids), and the files of
// every attachment under media_attachments/ by their file-host key. Progress (statuses, then
// files) is written to the record as it goes.
//
// Memory stays bounded whatever the account holds: the zip is written to a file on local disk
// as it is made (a page of statuses, one media file streamed at a time; only ids and paths are
// kept, never the statuses or the bytes), then handed to the file host streamed, under the key
// the record names from the start. The record says "ready" only once the file host has it whole,
// so a partial archive is never offered; a crash leaves the job, whose retry builds it again
// over the same partial file and key.

import { mkdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLogger } from "@logtape/logtape";
import type { Account, ImageRef } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { ByteRange, FileStream } from "../../media/file-host.ts";
import { ZipWriter } from "../../media/zip-writer.ts";
import { PRIVATE_DIR_MODE } from "../../private-modes.ts";
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

/**
 * An OrderedCollection written as its items come (totalItems after them: JSON keys have no
 * order), so no list of them is held.
 */
async function* collection(id: string, items: AsyncIterable<unknown>): AsyncGenerator<string> {
  yield `{"@context":"https://www.w3.org/ns/activitystreams","id":${JSON.stringify(id)},"type":"OrderedCollection","orderedItems":[`;
  let count = 0;
  for await (const item of items) yield `${count++ > 0 ? "," : ""}${JSON.stringify(item)}`;
  yield `],"totalItems":${count}}`;
}

const json = (value: unknown) => JSON.stringify(value);

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

/** The account's statuses that are not deleted, a page at a time. */
async function* ownStatusPages(ctx: ServiceContext, accountId: string): AsyncGenerator<Status[]> {
  let page: Status[] = [];
  for await (const status of walkPages((p) => ctx.storage.statuses.listByAccount(accountId, p))) {
    if (status.deleted) continue;
    page.push(status);
    if (page.length >= BATCH) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/** The URIs of the statuses the edges point at, looked up a batch at a time. */
async function* targetUris(
  ctx: ServiceContext,
  edges: AsyncIterable<{ targetId: string }>,
): AsyncGenerator<string> {
  let ids: string[] = [];
  const flush = async function* () {
    const statuses = await ctx.storage.statuses.getMany(ids);
    for (const id of ids) {
      const status = statuses.get(id);
      if (status && !status.deleted) yield status.uri;
    }
    ids = [];
  };
  for await (const edge of edges) {
    ids.push(edge.targetId);
    if (ids.length >= BATCH) yield* flush();
  }
  if (ids.length > 0) yield* flush();
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
    const found = await ctx.files.read(ref.key);
    if (!found) continue;
    const file = `${name}${extensionOf(ref)}`;
    await zip.add(file, found.body, { compress: !COMPRESSED.test(ref.contentType) });
    const image = actor[field];
    if (image && typeof image === "object") actor[field] = { ...(image as JsonObject), url: file };
  }
  actor.outbox = "outbox.json";
  actor.likes = "likes.json";
  actor.bookmarks = "bookmarks.json";
  await zip.add("actor.json", json(actor));
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

  // A first walk counts and gathers the attachments' ids (strings, not statuses).
  let statusCount = 0;
  const mediaSet = new Set<string>();
  for await (const page of ownStatusPages(ctx, accountId)) {
    statusCount += page.length;
    for (const s of page) if (s.reblogOfId === null) for (const id of s.mediaIds) mediaSet.add(id);
  }
  const mediaIds = [...mediaSet];
  // The key is chosen once and kept on the record: a retry writes over the same file, and a
  // failed or expired archive's file is found to remove.
  // A secret may start with "-" or "_", which no key segment may: hence the letter before it.
  const fileKey = found.fileKey ?? `archives/${accountId}/a${newSecret(24)}.zip`;
  await step(
    {
      state: "building",
      done: 0,
      total: statusCount + mediaIds.length,
      fileKey,
      error: null,
    },
    true,
  );

  const partial = await partialPath(ctx, archiveId);
  const zip = await ZipWriter.create(partial, ctx.clock.now());
  let size: number;
  try {
    const paths = new Map<string, string>();
    let done = 0;
    for (let i = 0; i < mediaIds.length; i += BATCH) {
      const media = await ctx.storage.media.getMany(mediaIds.slice(i, i + BATCH));
      for (const attachment of media.values()) {
        const key = attachment.fileKey;
        const file = key ? await ctx.files.read(key) : null;
        if (key && file) {
          const path = `media_attachments/${key}`;
          await zip.add(path, file.body, { compress: !COMPRESSED.test(attachment.contentType) });
          paths.set(ctx.files.url(key), path);
        } else if (key) {
          logger.warn("Archive {archiveId}: the file {key} is missing", { archiveId, key });
        }
        await step({ done: ++done });
      }
    }
    // Each attachment counted once, even when its file was missing.
    done = mediaIds.length;

    const activities = async function* () {
      for await (const page of ownStatusPages(ctx, accountId)) {
        for (const activity of await documents.activities(account, page)) {
          const { "@context": _context, ...item } = activity;
          yield localizeAttachments(item, paths);
        }
        done += page.length;
        await step({ done });
      }
    };
    await zip.add("outbox.json", collection("outbox.json", activities()));
    const walkEdges = (store: "favourites" | "bookmarks") =>
      walkPages((page) => ctx.storage[store].listFrom(accountId, page));
    await zip.add("likes.json", collection("likes.json", targetUris(ctx, walkEdges("favourites"))));
    await zip.add(
      "bookmarks.json",
      collection("bookmarks.json", targetUris(ctx, walkEdges("bookmarks"))),
    );
    await addActor(ctx, zip, account, documents);
    size = await zip.finish();
    await ctx.files.putFile(fileKey, partial, "application/zip");
  } finally {
    await zip.abort();
    await rm(partial, { force: true });
  }
  const now = ctx.clock.now();
  await step(
    {
      state: "ready",
      fileKey,
      size,
      finishedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + ARCHIVE_TTL_MS).toISOString(),
    },
    true,
  );
  return progress.current;
}

/**
 * Where an archive is made before the file host takes it: a file of the process's scratch
 * directory (on disk, under the data directory) named by the archive, so a retry after a crash
 * writes over what the crash left.
 */
async function partialPath(ctx: ServiceContext, archiveId: string): Promise<string> {
  const dir = join(ctx.scratchDir ?? tmpdir(), "archives");
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  return join(dir, `${archiveId}.zip.partial`);
}

/** Marks an archive whose job gave up as failed (its file, if any went up, removed). */
export async function failArchive(
  ctx: ServiceContext,
  accountId: string,
  archiveId: string,
  error: string,
): Promise<void> {
  const found = await findArchive(ctx, accountId, archiveId);
  if (!found || found.state === "ready") return;
  if (found.fileKey) await ctx.files.delete(found.fileKey);
  await saveArchive(ctx, { ...found, state: "failed", fileKey: null, error });
}

/** The finished archive's bytes (or `range` of them), streamed, for its owner. */
export async function archiveStream(
  ctx: ServiceContext,
  archive: AccountArchive,
  range?: ByteRange,
): Promise<FileStream | null> {
  if (archive.state !== "ready" || !archive.fileKey) return null;
  return ctx.files.read(archive.fileKey, range);
}
