// The settings pages of a signed-in browser (the OAuth pages' look, no scripts): aliases,
// account migration, CSV import, export and the archive. Every form carries the session's CSRF
// token; every value goes through escapeHtml.

import { type Account, acctOf } from "../../domain/account.ts";
import {
  type CsvImport,
  IMPORT_FILE_BYTES,
  IMPORT_TYPES,
  importCounts,
} from "../../domain/csv-import.ts";
import type { AccountArchive } from "../../services/archives/archive-records.ts";
import { page } from "../oauth/html.ts";
import { escapeHtml } from "../web/html.ts";

export interface Notice {
  kind: "error" | "status";
  text: string;
}

export interface SettingsFrame {
  account: Account;
  csrf: string;
  notice: Notice | null;
  /** Moderators and admins: a link to the admin area. */
  staff?: boolean;
}

const SECTIONS = [
  ["/settings/aliases", "Aliases"],
  ["/settings/migration", "Account migration"],
  ["/settings/import", "Import"],
  ["/settings/export", "Export"],
] as const;

/** The hidden CSRF field every form of a signed-in page carries. */
export const token = (csrf: string) =>
  `<input type="hidden" name="authenticity_token" value="${escapeHtml(csrf)}">`;

/** A notice over the page: an error (alert) or what was done (status). */
export function notice(n: Notice | null): string {
  if (!n) return "";
  return n.kind === "error"
    ? `<p class="error" role="alert">${escapeHtml(n.text)}</p>`
    : `<p role="status"><strong>${escapeHtml(n.text)}</strong></p>`;
}

function frame(frameView: SettingsFrame, current: string, title: string, body: string): string {
  const nav = SECTIONS.map(([href, label]) =>
    href === current
      ? `<strong aria-current="page">${label}</strong>`
      : `<a href="${href}">${label}</a>`,
  ).join(" · ");
  return page(
    `${title} – Settings`,
    `<nav aria-label="Settings"><p class="muted">Signed in as <strong>${escapeHtml(acctOf(frameView.account))}</strong></p>
<p>${nav}</p>
${frameView.staff ? '<p><a href="/admin">Administration</a></p>\n' : ""}<form method="post" action="/auth/sign_out">${token(frameView.csrf)}<button type="submit" class="secondary">Sign out</button></form></nav>
<h1>${escapeHtml(title)}</h1>
${notice(frameView.notice)}
${body}`,
  );
}

export function aliasesPage(view: SettingsFrame & { aliases: readonly string[] }): string {
  const list =
    view.aliases.length === 0
      ? `<p class="muted">No aliases yet.</p>`
      : `<ul aria-label="Aliases">${view.aliases
          .map(
            (alias) => `<li><code>${escapeHtml(alias)}</code>
<form method="post" action="/settings/aliases/remove">${token(view.csrf)}<input type="hidden" name="alias" value="${escapeHtml(alias)}"><button type="submit" class="secondary" aria-label="Remove ${escapeHtml(alias)}">Remove</button></form></li>`,
          )
          .join("\n")}</ul>`;
  return frame(
    view,
    "/settings/aliases",
    "Aliases",
    `<p>Moving here from another account? Add that account as an alias first, so that its move to this account is accepted.</p>
${list}
<form method="post" action="/settings/aliases">
${token(view.csrf)}
<label for="alias">Handle or address of the old account</label>
<input type="text" id="alias" name="alias" placeholder="username@example.com" autocapitalize="none" spellcheck="false" required>
<div class="actions"><button type="submit">Add alias</button></div>
</form>`,
  );
}

export function migrationPage(
  view: SettingsFrame & { movedTo: string | null; target: string },
): string {
  const moved = view.movedTo
    ? `<p role="status">This account has moved to <code>${escapeHtml(view.movedTo)}</code>. You can move it again to another account.</p>`
    : "";
  return frame(
    view,
    "/settings/migration",
    "Move to a different account",
    `${moved}
<p>Your followers are moved to the new account, and this account shows where it went. First add this account as an alias on the new one.</p>
<form method="post" action="/settings/migration">
${token(view.csrf)}
<label for="acct">Handle of the new account</label>
<input type="text" id="acct" name="acct" value="${escapeHtml(view.target)}" placeholder="username@example.com" autocapitalize="none" spellcheck="false" required>
<label for="current_password">Current password</label>
<input type="password" id="current_password" name="current_password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Move followers</button></div>
</form>`,
  );
}

const TYPE_LABELS: Record<string, string> = {
  following: "Following list",
  lists: "Lists",
  blocks: "Blocking list",
  mutes: "Muting list",
  "domain-blocks": "Domain blocking list",
  bookmarks: "Bookmarks",
};

function importItem(record: CsvImport): string {
  const { total, processed, failed } = importCounts(record);
  const state = record.finishedAt === null ? "in progress" : "finished";
  const failures =
    record.failures.length === 0
      ? ""
      : `<details><summary>${failed} failed rows</summary><ul>${record.failures
          .slice(0, 100)
          .map(
            (f) =>
              `<li>Row ${f.row}: <code>${escapeHtml(f.value)}</code> – ${escapeHtml(f.reason)}</li>`,
          )
          .join("")}</ul></details>`;
  return `<li id="import-${escapeHtml(record.id)}">${escapeHtml(TYPE_LABELS[record.type] ?? record.type)} (${escapeHtml(record.mode)}), ${escapeHtml(record.createdAt.slice(0, 16).replace("T", " "))}: <span class="import-progress">${processed} of ${total} rows processed, ${failed} failed, ${state}</span>
<progress max="${total}" value="${processed}">${processed}/${total}</progress>${failures}</li>`;
}

export function importPage(view: SettingsFrame & { imports: readonly CsvImport[] }): string {
  const options = IMPORT_TYPES.map(
    (t) => `<option value="${t}">${escapeHtml(TYPE_LABELS[t] ?? t)}</option>`,
  ).join("");
  const list =
    view.imports.length === 0
      ? `<p class="muted">No imports in the last week.</p>`
      : `<ul aria-label="Recent imports">${view.imports.map(importItem).join("\n")}</ul>`;
  return frame(
    view,
    "/settings/import",
    "Import",
    `<p>Import the CSV files of another server's data export (Mastodon's, or this server's). Reload the page to see the progress.</p>
<form method="post" action="/settings/import" enctype="multipart/form-data">
${token(view.csrf)}
<label for="type">Import type</label>
<select id="type" name="type">${options}</select>
<fieldset><legend>Mode</legend>
<label class="check"><input type="radio" name="mode" value="merge" checked> Merge: keep what you have and add the file's</label>
<label class="check"><input type="radio" name="mode" value="overwrite"> Overwrite: replace what you have with the file's</label>
</fieldset>
<label for="data">CSV file (at most ${IMPORT_FILE_BYTES / 1024} KiB)</label>
<input type="file" id="data" name="data" accept=".csv,text/csv" required>
<div class="actions"><button type="submit">Upload</button></div>
</form>
<h2>Recent imports</h2>
${list}`,
  );
}

function archiveItem(archive: AccountArchive): string {
  const when = escapeHtml(archive.createdAt.slice(0, 16).replace("T", " "));
  switch (archive.state) {
    case "ready":
      return `<li>${when}: <a href="/settings/export/archive/${escapeHtml(archive.id)}" download>Download the archive</a> (${Math.ceil((archive.size ?? 0) / 1024)} KiB, until ${escapeHtml((archive.expiresAt ?? "").slice(0, 10))})</li>`;
    case "failed":
      return `<li>${when}: failed (${escapeHtml(archive.error ?? "unknown error")})</li>`;
    default: {
      const label = archive.state === "waiting" ? "waiting" : "being prepared";
      return `<li>${when}: <span class="archive-state">${label}</span>, ${archive.done} of ${archive.total} items <progress max="${archive.total || 1}" value="${archive.done}"></progress></li>`;
    }
  }
}

export function exportPage(view: SettingsFrame & { archives: readonly AccountArchive[] }): string {
  const csv = IMPORT_TYPES.map(
    (t) =>
      `<li><a href="/settings/export/${t}.csv" download>${escapeHtml(TYPE_LABELS[t] ?? t)}</a> <span class="muted">(${t}.csv)</span></li>`,
  ).join("\n");
  const archives =
    view.archives.length === 0
      ? ""
      : `<ul aria-label="Archives">${view.archives.map(archiveItem).join("\n")}</ul>`;
  return frame(
    view,
    "/settings/export",
    "Export",
    `<h2>CSV files</h2>
<ul aria-label="CSV files">${csv}</ul>
<h2>Your archive</h2>
<p>An archive of your posts (as ActivityPub), likes, bookmarks and uploaded media, to keep or to read with other tools. It can be requested once every six days and stays available for a week.</p>
${archives}
<form method="post" action="/settings/export/archive">${token(view.csrf)}<div class="actions"><button type="submit">Request your archive</button></div></form>`,
  );
}
