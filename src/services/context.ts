// What every use case receives: storage, the clock, id generation, the file host and the few
// settings that shape behaviour. Built once by src/wiring/service-context.ts (or by a test) and
// passed down.

import type { Clock } from "../domain/clock.ts";
import type { IdGenerator } from "../domain/ids.ts";
import type { FfmpegSettings } from "../media/ffmpeg-location.ts";
import type { FileHost } from "../media/file-host.ts";
import type { Storage } from "../storage/ports.ts";
import type { ArchiveDocuments } from "./archives/documents.ts";
import type { LinkFetcher } from "./cards/link-fetcher.ts";
import type { EventBus } from "./events.ts";
import type { JobQueue } from "./job-queue.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { PushSender } from "./push/push-sender.ts";
import type { RemoteResolver } from "./remote.ts";
import type { Translator } from "./translation/translator.ts";

export interface InstanceSettings {
  /** Origin of every URL and ActivityPub id, e.g. `https://social.example`. */
  publicUrl: string;
  /**
   * The ws(s):// origin clients open the streaming API at (WREN_STREAMING_URL); absent: the
   * public URL's own, where Wren serves it.
   */
  streamingUrl?: string;
  /** Host part of publicUrl, the domain of local accounts. */
  domain: string;
  title: string;
  description: string;
  /** The configured contact address; when unset, the instance endpoints show an admin's. */
  contactEmail: string | undefined;
  registrations: "open" | "approval" | "closed";
  maxStatusCharacters: number;
  maxMediaAttachments: number;
  /** Largest avatar/header upload in bytes. */
  maxImageBytes: number;
  /** The rules of WREN_RULES, in force until the operator manages them (services/instance/rules.ts). */
  rules: string[];
  /** Who may read the blocked domains (WREN_SHOW_DOMAIN_BLOCKS); absent: nobody (`disabled`). */
  showDomainBlocks?: "disabled" | "users" | "all";
  /**
   * WREN_FEDERATION_MODE: `blocklist` (absent: the default) federates with every server not
   * suspended; `allowlist` only with the domains an admin allowed (services/domain-blocks/).
   */
  federationMode?: "blocklist" | "allowlist";
  /** Where ffmpeg and ffprobe are, when set (WREN_FFMPEG_PATH, WREN_FFPROBE_PATH). */
  ffmpeg: FfmpegSettings;
  /**
   * Days after which remote statuses nobody here interacted with are removed; 0 or absent keeps
   * them forever (WREN_REMOTE_STATUS_RETENTION_DAYS).
   */
  remoteStatusRetentionDays?: number;
  /**
   * scrypt's cost for new password hashes, log2 of N (WREN_PASSWORD_HASH_COST); absent: the
   * default of services/auth/passwords.ts. Lowered by the tests only.
   */
  passwordHashCost?: number;
  /**
   * Trends show only what a moderator approved (WREN_TRENDS_REQUIRE_REVIEW); absent or false:
   * everything not rejected.
   */
  trendsRequireReview?: boolean;
}

export interface ServiceContext {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  files: FileHost;
  /**
   * A directory on local disk for files being made (account archives) before the file host
   * takes them: under the data directory, not the system's temporary one (often memory).
   * Absent in tests' contexts: the system's temporary directory.
   */
  scratchDir?: string;
  settings: InstanceSettings;
  events: EventBus;
  jobs: JobQueue;
  /** Other servers, through the federation (set by attachFederation, src/wiring/federation.ts). */
  remote: RemoteResolver;
  /** Linked pages and their images (preview cards); absent: no cards are fetched. */
  links?: LinkFetcher;
  /** The operator's translation service (WREN_TRANSLATION_URL); absent: no translation. */
  translator?: Translator;
  /**
   * The mail server (WREN_SMTP_URL); absent: no mail is sent, new accounts are confirmed at
   * once and passwords are reset only by the operator.
   */
  mailer?: Mailer;
  /** Subscribers' push services (Web Push); absent: nothing is pushed. */
  push?: PushSender;
  /** The ActivityPub documents of account archives (set with the federation, like `remote`). */
  archiveDocuments?: ArchiveDocuments;
}
