// The admin area's pages (the settings pages' look and helpers, no scripts): dashboard, reports
// queue and report, local accounts, domain blocks, rules and server settings. Each section needs
// one role permission; the navigation shows only the sections the signed-in role may open.

import { type Account, acctOf, isSensitized, isSilenced } from "../../domain/account.ts";
import { type Rule, ruleText } from "../../domain/instance-rules.ts";
import { type Permission, roleMay } from "../../domain/permissions.ts";
import { isResolved } from "../../domain/report.ts";
import {
  DOMAIN_BLOCK_SEVERITIES,
  type DomainBlock,
  type DomainBlockSeverity,
} from "../../domain/server-blocks.ts";
import { htmlText } from "../../domain/text/html.ts";
import type { Role } from "../../domain/user.ts";
import type { DocumentKind, InstanceDocument } from "../../services/instance/documents.ts";
import type { TermsVersion } from "../../services/instance/terms.ts";
import type { ReportDetails } from "../../services/reports/moderate-report.ts";
import type { LocalAccountEntry, StaffDashboard } from "../../views/admin-area-view.ts";
import { page } from "../oauth/html.ts";
import { type Notice, notice, token } from "../settings/pages.ts";
import { escapeHtml } from "../web/html.ts";

export interface AdminSection {
  href: string;
  label: string;
  permission: Permission;
}

/** The sections, in Mastodon's permission names: the routes guard each with its permission. */
export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { href: "/admin", label: "Dashboard", permission: "view_dashboard" },
  { href: "/admin/reports", label: "Reports", permission: "manage_reports" },
  { href: "/admin/accounts", label: "Accounts", permission: "manage_users" },
  { href: "/admin/domain_blocks", label: "Domain blocks", permission: "manage_federation" },
  { href: "/admin/rules", label: "Rules", permission: "manage_rules" },
  { href: "/admin/settings", label: "Server settings", permission: "manage_settings" },
];

export interface AdminFrame {
  account: Account;
  role: Role;
  csrf: string;
  notice: Notice | null;
}

/** A form of one button posting to `action`, with hidden fields. */
export function buttonForm(
  csrf: string,
  action: string,
  label: string,
  options: { secondary?: boolean; fields?: Record<string, string>; name?: string } = {},
): string {
  const hidden = Object.entries(options.fields ?? {})
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  const cls = options.secondary ? ' class="secondary"' : "";
  const aria = options.name ? ` aria-label="${escapeHtml(options.name)}"` : "";
  return `<form method="post" action="${escapeHtml(action)}">${token(csrf)}${hidden}<button type="submit"${cls}${aria}>${escapeHtml(label)}</button></form>`;
}

function frame(view: AdminFrame, current: string, title: string, body: string): string {
  const nav = ADMIN_SECTIONS.filter((s) => roleMay(view.role, s.permission))
    .map((s) =>
      s.href === current
        ? `<strong aria-current="page">${s.label}</strong>`
        : `<a href="${s.href}">${s.label}</a>`,
    )
    .join(" · ");
  return page(
    `${title} – Administration`,
    `<nav aria-label="Administration"><p class="muted">Signed in as <strong>${escapeHtml(acctOf(view.account))}</strong> (${escapeHtml(view.role)}) · <a href="/settings">Settings</a></p>
<p>${nav}</p>
<form method="post" action="/auth/sign_out">${token(view.csrf)}<button type="submit" class="secondary">Sign out</button></form></nav>
<h1>${escapeHtml(title)}</h1>
${notice(view.notice)}
${body}`,
  );
}

const when = (iso: string) => escapeHtml(iso.slice(0, 16).replace("T", " "));

export function dashboardPage(view: AdminFrame & { dashboard: StaffDashboard }): string {
  const { pendingSignUps, openReports, openReportsMore } = view.dashboard;
  const items: string[] = [];
  if (roleMay(view.role, "manage_reports")) {
    items.push(
      `<li><a href="/admin/reports">Open reports</a>: <strong class="count-open-reports">${openReports}${openReportsMore ? "+" : ""}</strong></li>`,
    );
  }
  if (roleMay(view.role, "manage_users")) {
    items.push(
      `<li><a href="/admin/accounts">Pending sign-ups</a>: <strong class="count-pending-sign-ups">${pendingSignUps}</strong></li>`,
    );
  }
  return frame(
    view,
    "/admin",
    "Dashboard",
    `<ul aria-label="Waiting for moderators">${items.join("\n")}</ul>`,
  );
}

/** Someone named by a report, or a note that the account is gone. */
function who(details: ReportDetails, id: string | null): string {
  if (id === null) return "nobody";
  const account = details.accounts.get(id);
  return account ? escapeHtml(acctOf(account)) : "(deleted account)";
}

export function reportsPage(
  view: AdminFrame & { reports: readonly ReportDetails[]; resolved: boolean; older: string | null },
): string {
  const tabs = view.resolved
    ? `<a href="/admin/reports">Open</a> · <strong aria-current="true">Resolved</strong>`
    : `<strong aria-current="true">Open</strong> · <a href="/admin/reports?resolved=1">Resolved</a>`;
  const list =
    view.reports.length === 0
      ? `<p class="muted">No ${view.resolved ? "resolved" : "open"} reports.</p>`
      : `<ul aria-label="Reports">${view.reports
          .map(
            (d) =>
              `<li><a href="/admin/reports/${escapeHtml(d.report.id)}">Report #${escapeHtml(d.report.id)}</a> about <strong>${who(d, d.report.targetAccountId)}</strong> by ${who(d, d.report.accountId)} (${escapeHtml(d.report.category)}, ${when(d.report.createdAt)})${d.report.assignedAccountId ? `, assigned to ${who(d, d.report.assignedAccountId)}` : ""}</li>`,
          )
          .join("\n")}</ul>`;
  const more = view.older
    ? `<p><a href="/admin/reports?${view.resolved ? "resolved=1&amp;" : ""}max_id=${escapeHtml(view.older)}">Older reports</a></p>`
    : "";
  return frame(view, "/admin/reports", "Reports", `<p>${tabs}</p>\n${list}\n${more}`);
}

export function reportPage(
  view: AdminFrame & { details: ReportDetails; rules: readonly Rule[] },
): string {
  const { details } = view;
  const r = details.report;
  const base = `/admin/reports/${escapeHtml(r.id)}`;
  const rules =
    r.ruleIds.length === 0
      ? ""
      : `<dt>Rules</dt><dd><ul aria-label="Rules broken">${r.ruleIds
          .map((id) => `<li>${escapeHtml(ruleText(view.rules, id) ?? `Rule ${id} (removed)`)}</li>`)
          .join("")}</ul></dd>`;
  const statuses =
    details.statuses.length === 0
      ? `<p class="muted">No posts attached.</p>`
      : `<ul aria-label="Reported posts">${details.statuses
          .map(
            (s) =>
              `<li>${s.spoilerText ? `<strong>${escapeHtml(s.spoilerText)}</strong> ` : ""}${escapeHtml(htmlText(s.contentHtml))} <span class="muted">(<a href="${escapeHtml(s.url || s.uri)}">${when(s.createdAt)}</a>${s.deleted ? ", deleted" : ""})</span></li>`,
          )
          .join("\n")}</ul>`;
  const state = isResolved(r)
    ? `Resolved ${when(r.actionTakenAt ?? "")} by ${r.actionTakenById === null ? "the operator" : who(details, r.actionTakenById)}`
    : "Open";
  const forms: string[] = [];
  if (r.assignedAccountId !== view.account.id) {
    forms.push(
      buttonForm(view.csrf, `${base}/assign_to_self`, "Assign to me", { secondary: true }),
    );
  }
  if (r.assignedAccountId !== null) {
    forms.push(buttonForm(view.csrf, `${base}/unassign`, "Unassign", { secondary: true }));
  }
  forms.push(
    isResolved(r)
      ? buttonForm(view.csrf, `${base}/reopen`, "Reopen")
      : buttonForm(view.csrf, `${base}/resolve`, "Mark as resolved"),
  );
  return frame(
    view,
    "/admin/reports",
    `Report #${r.id}`,
    `<dl>
<dt>State</dt><dd class="report-state">${state}</dd>
<dt>Reported account</dt><dd>${who(details, r.targetAccountId)}</dd>
<dt>Reported by</dt><dd>${who(details, r.accountId)}</dd>
<dt>Filed</dt><dd>${when(r.createdAt)}</dd>
<dt>Category</dt><dd>${escapeHtml(r.category)}</dd>
${rules}
<dt>Assigned to</dt><dd>${who(details, r.assignedAccountId)}</dd>
<dt>Comment</dt><dd>${r.comment ? escapeHtml(r.comment) : '<span class="muted">none</span>'}</dd>
</dl>
<h2>Posts</h2>
${statuses}
<div class="actions">${forms.join("")}</div>
<p><a href="/admin/reports">Back to the reports</a></p>`,
  );
}

/** One form of the accounts page: posts to /admin/accounts/:id/:name. */
export interface AccountActionButton {
  name: string;
  label: string;
  secondary: boolean;
}

function accountState(entry: LocalAccountEntry): string {
  const { user } = entry;
  const states: string[] = [];
  if (user.approved === false) states.push("waiting for approval");
  if (user.confirmed === false) states.push("email not confirmed");
  if (user.disabled) states.push("disabled");
  if (entry.account.suspended) states.push("suspended");
  if (isSilenced(entry.account)) states.push("limited");
  if (isSensitized(entry.account)) states.push("media marked sensitive");
  return states.length === 0 ? "active" : states.join(", ");
}

export function accountsPage(
  view: AdminFrame & {
    entries: readonly { entry: LocalAccountEntry; actions: readonly AccountActionButton[] }[];
  },
): string {
  const rows = view.entries.map(({ entry, actions }) => {
    const { account, user } = entry;
    const name = acctOf(account);
    const reason = user.signUpReason
      ? `<br><span class="muted">Reason: ${escapeHtml(user.signUpReason)}</span>`
      : "";
    const forms = actions
      .map((a) =>
        buttonForm(view.csrf, `/admin/accounts/${account.id}/${a.name}`, a.label, {
          secondary: a.secondary,
          name: `${a.label} ${name}`,
        }),
      )
      .join("");
    return `<li id="account-${escapeHtml(account.id)}"><strong>${escapeHtml(name)}</strong> &lt;${escapeHtml(user.email)}&gt; · ${escapeHtml(user.role)} · <span class="account-state">${escapeHtml(accountState(entry))}</span> · joined ${when(user.createdAt)}${reason}${forms ? `<div class="actions">${forms}</div>` : ""}</li>`;
  });
  return frame(
    view,
    "/admin/accounts",
    "Accounts",
    rows.length === 0
      ? `<p class="muted">No local accounts.</p>`
      : `<ul aria-label="Local accounts">${rows.join("\n")}</ul>`,
  );
}

const SEVERITY_LABELS: Record<DomainBlockSeverity, string> = {
  suspend: "Suspend",
  silence: "Limit",
  noop: "None (flags only)",
};

function blockSummary(block: DomainBlock): string {
  const parts: string[] = [SEVERITY_LABELS[block.severity]];
  if (block.rejectMedia) parts.push("media rejected");
  if (block.rejectReports) parts.push("reports rejected");
  return parts.join(", ");
}

export function domainBlocksPage(view: AdminFrame & { blocks: readonly DomainBlock[] }): string {
  const list =
    view.blocks.length === 0
      ? `<p class="muted">No domain is blocked.</p>`
      : `<ul aria-label="Blocked domains">${view.blocks
          .map(
            (b) =>
              `<li><code>${escapeHtml(b.domain)}</code> <span class="block-severity">${escapeHtml(blockSummary(b))}</span> <span class="muted">since ${when(b.createdAt)}</span>${buttonForm(view.csrf, "/admin/domain_blocks/remove", "Unblock", { secondary: true, fields: { domain: b.domain }, name: `Unblock ${b.domain}` })}</li>`,
          )
          .join("\n")}</ul>`;
  return frame(
    view,
    "/admin/domain_blocks",
    "Domain blocks",
    `<p>A suspended domain (and its subdomains) gets nothing from this server and nothing of it is accepted; suspending ends every follow between its accounts and local ones and removes what is stored of it. A limited domain's posts leave public timelines for those who do not follow their authors.</p>
${list}
<form method="post" action="/admin/domain_blocks">
${token(view.csrf)}
<label for="domain">Domain</label>
<input type="text" id="domain" name="domain" placeholder="example.com" autocapitalize="none" spellcheck="false" required>
<label for="severity">Severity</label>
<select id="severity" name="severity">${DOMAIN_BLOCK_SEVERITIES.map((s) => `<option value="${s}"${s === "suspend" ? " selected" : ""}>${SEVERITY_LABELS[s]}</option>`).join("")}</select>
<label><input type="checkbox" name="reject_media" value="1"> Reject media files</label>
<label><input type="checkbox" name="reject_reports" value="1"> Reject reports</label>
<label><input type="checkbox" name="obfuscate" value="1"> Obfuscate the domain in the public list</label>
<label for="public_comment">Public comment</label>
<input type="text" id="public_comment" name="public_comment">
<div class="actions"><button type="submit">Block the domain</button></div>
</form>`,
  );
}

export function rulesPage(view: AdminFrame & { rules: readonly Rule[] }): string {
  const list =
    view.rules.length === 0
      ? `<p class="muted">No rules yet.</p>`
      : `<ol aria-label="Rules">${view.rules
          .map(
            (r) =>
              `<li>${escapeHtml(r.text)}${r.hint ? `<br><span class="muted">${escapeHtml(r.hint)}</span>` : ""}${buttonForm(view.csrf, "/admin/rules/remove", "Remove", { secondary: true, fields: { id: r.id }, name: `Remove rule ${r.id}` })}</li>`,
          )
          .join("\n")}</ol>`;
  return frame(
    view,
    "/admin/rules",
    "Rules",
    `<p>The rules people agree to when they sign up, and that reports cite.</p>
${list}
<form method="post" action="/admin/rules">
${token(view.csrf)}
<label for="text">Rule</label>
<input type="text" id="text" name="text" required>
<label for="hint">Explanation (optional)</label>
<textarea id="hint" name="hint" rows="2"></textarea>
<div class="actions"><button type="submit">Add rule</button></div>
</form>`,
  );
}

export interface DocumentEntry {
  kind: DocumentKind;
  label: string;
  document: InstanceDocument | undefined;
}

/** The format select; HTML chosen when the field holds a published document's HTML. */
const formatChoice = (id: string, html: boolean) => `<label for="${id}">Format</label>
<select id="${id}" name="format"><option value="text">Plain text (paragraphs)</option><option value="html"${html ? " selected" : ""}>HTML</option></select>`;

export function serverSettingsPage(
  view: AdminFrame & { documents: readonly DocumentEntry[]; terms: readonly TermsVersion[] },
): string {
  const documents = view.documents
    .map(({ kind, label, document }) => {
      const current = document
        ? `<p class="muted">Published ${when(document.updatedAt)}. The text below is its HTML.</p>${buttonForm(view.csrf, `/admin/settings/documents/${kind}/clear`, "Unpublish", { secondary: true, name: `Unpublish the ${label.toLowerCase()}` })}`
        : `<p class="muted">Not published.</p>`;
      return `<h2 id="doc-${kind}">${escapeHtml(label)}</h2>
${current}
<form method="post" action="/admin/settings/documents/${kind}">
${token(view.csrf)}
<label for="text-${kind}">${escapeHtml(label)} text</label>
<textarea id="text-${kind}" name="text" rows="6" required>${escapeHtml(document?.content ?? "")}</textarea>
${formatChoice(`format-${kind}`, document !== undefined)}
<div class="actions"><button type="submit">Publish the ${escapeHtml(label.toLowerCase())}</button></div>
</form>`;
    })
    .join("\n");
  const terms =
    view.terms.length === 0
      ? `<p class="muted">No terms of service published.</p>`
      : `<ul aria-label="Terms of service versions">${view.terms
          .map(
            (t) =>
              `<li>Effective ${escapeHtml(t.effectiveDate)} <span class="muted">(${escapeHtml(htmlText(t.content).slice(0, 80))}…)</span>${buttonForm(view.csrf, "/admin/settings/terms/remove", "Withdraw", { secondary: true, fields: { effective_date: t.effectiveDate }, name: `Withdraw the terms of ${t.effectiveDate}` })}</li>`,
          )
          .join("\n")}</ul>`;
  return frame(
    view,
    "/admin/settings",
    "Server settings",
    `<p>Settings given in the environment (WREN_*) are changed there; these can be changed at any time.</p>
${documents}
<h2>Terms of service</h2>
${terms}
<form method="post" action="/admin/settings/terms">
${token(view.csrf)}
<label for="effective_date">Effective date (YYYY-MM-DD, today if empty)</label>
<input type="text" id="effective_date" name="effective_date" placeholder="2026-01-31">
<label for="terms-text">Terms text</label>
<textarea id="terms-text" name="text" rows="6" required></textarea>
${formatChoice("format-terms", false)}
<div class="actions"><button type="submit">Publish the terms</button></div>
</form>`,
  );
}

/** The 403 page of a signed-in user whose role may not open the section. */
export function forbiddenPage(): string {
  return page(
    "Not allowed",
    `<h1>Not allowed</h1>
<p role="alert">Your role does not allow this page.</p>
<p><a href="/settings">Back to your settings</a></p>`,
  );
}
