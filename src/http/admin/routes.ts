// The admin area behind the browser session (/admin): dashboard, reports queue, local accounts,
// domain blocks, rules and server settings, for the roles whose permissions allow each section
// (pages.ts ADMIN_SECTIONS); others get a 403 page, signed-out browsers the sign-in page. The
// pages call the services the admin API and the CLI call, and show their refusals as the page's
// notice with the error's status (the settings pages' helpers).

import type { Context, Hono } from "hono";
import type { MiddlewareHandler } from "hono/types";
import { isLocallySuspended, isSensitized, isSilenced } from "../../domain/account.ts";
import { notFound, unprocessable } from "../../domain/errors.ts";
import { type Permission, roleMay } from "../../domain/permissions.ts";
import { DOMAIN_BLOCK_SEVERITIES, type DomainBlockSeverity } from "../../domain/server-blocks.ts";
import { isApproved } from "../../domain/user.ts";
import { approveSignUp, rejectSignUp } from "../../services/accounts/approve-sign-up.ts";
import {
  actOnAccount,
  type Moderator,
  type UndoAction,
  undoAction,
} from "../../services/accounts/moderate-account.ts";
import type { ServiceContext } from "../../services/context.ts";
import {
  blockDomain,
  listDomainBlocks,
  unblockDomain,
} from "../../services/domain-blocks/domain-blocks.ts";
import {
  clearDocument,
  DOCUMENT_KINDS,
  type DocumentKind,
  getDocument,
  setDocument,
} from "../../services/instance/documents.ts";
import { addRule, currentRules, removeRule } from "../../services/instance/rules.ts";
import { listTerms, removeTerms, setTerms } from "../../services/instance/terms.ts";
import {
  assignReport,
  listAdminReports,
  resolveReportAs,
} from "../../services/reports/admin-reports.ts";
import {
  type ReportDetails,
  reopenReport,
  showReport,
} from "../../services/reports/moderate-report.ts";
import {
  type LocalAccountEntry,
  localAccountsForStaff,
  staffDashboard,
} from "../../views/admin-area-view.ts";
import type { RouteModule } from "../app.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { htmlResponse } from "../oauth/html.ts";
import { requireSession, sessionCsrf } from "../session/session.ts";
import type { Notice } from "../settings/pages.ts";
import { field, refusal, type Status } from "../settings/routes.ts";
import {
  type AccountActionButton,
  ADMIN_SECTIONS,
  type AdminFrame,
  accountsPage,
  dashboardPage,
  domainBlocksPage,
  forbiddenPage,
  reportPage,
  reportsPage,
  rulesPage,
  serverSettingsPage,
} from "./pages.ts";

const REPORTS_PER_PAGE = 40;

const isDomainBlockSeverity = (value: string): value is DomainBlockSeverity =>
  (DOMAIN_BLOCK_SEVERITIES as readonly string[]).includes(value);

/**
 * What a moderator may do to a local account from the accounts page: one entry per form. An
 * action is offered when `applies`, needs its permission, and answers the notice to show. The
 * service still refuses (403) an account of the moderator's rank or above, and themselves.
 */
interface AccountAction extends AccountActionButton {
  permission: Permission;
  applies(entry: LocalAccountEntry): boolean;
  run(ctx: ServiceContext, entry: LocalAccountEntry, moderator: Moderator): Promise<string>;
}

/** A moderation action and its reverse, offered on approved accounts by their current state. */
function moderation(
  name: "silence" | "sensitive" | "disable" | "suspend",
  undo: UndoAction,
  labels: { act: string; undo: string; done: string; undone: string },
  isOn: (entry: LocalAccountEntry) => boolean,
): AccountAction[] {
  const approved = (e: LocalAccountEntry) => isApproved(e.user);
  return [
    {
      name,
      label: labels.act,
      secondary: true,
      permission: "manage_users",
      applies: (e) => approved(e) && !isOn(e),
      async run(ctx, { account }, moderator) {
        await actOnAccount(ctx, moderator, account.id, { type: name });
        return `${account.username} ${labels.done}.`;
      },
    },
    {
      name: undo,
      label: labels.undo,
      secondary: false,
      permission: "manage_users",
      applies: (e) => approved(e) && isOn(e),
      async run(ctx, { account }, moderator) {
        await undoAction(ctx, moderator, account.id, undo);
        return `${account.username} ${labels.undone}.`;
      },
    },
  ];
}

const ACCOUNT_ACTIONS: readonly AccountAction[] = [
  {
    name: "approve",
    label: "Approve",
    secondary: false,
    permission: "manage_users",
    applies: (e) => !isApproved(e.user),
    async run(ctx, { account }) {
      await approveSignUp(ctx, account.username);
      return `Approved the sign-up of ${account.username}.`;
    },
  },
  {
    name: "reject",
    label: "Reject",
    secondary: true,
    permission: "manage_users",
    applies: (e) => !isApproved(e.user),
    async run(ctx, { account }) {
      await rejectSignUp(ctx, account.username);
      return `Rejected the sign-up of ${account.username}: the account is deleted.`;
    },
  },
  ...moderation(
    "silence",
    "unsilence",
    {
      act: "Limit",
      undo: "Lift the limit",
      done: "is limited: their posts leave public timelines for non-followers",
      undone: "is no longer limited",
    },
    (e) => isSilenced(e.account),
  ),
  ...moderation(
    "sensitive",
    "unsensitive",
    {
      act: "Mark media sensitive",
      undo: "Unmark media",
      done: "has their media marked sensitive",
      undone: "no longer has their media marked sensitive",
    },
    (e) => isSensitized(e.account),
  ),
  ...moderation(
    "disable",
    "enable",
    {
      act: "Freeze sign-in",
      undo: "Unfreeze",
      done: "can no longer sign in",
      undone: "can sign in again",
    },
    (e) => e.user.disabled,
  ),
  ...moderation(
    "suspend",
    "unsuspend",
    {
      act: "Suspend",
      undo: "Lift the suspension",
      done: "is suspended: hidden everywhere, and deleted on other servers",
      undone: "is no longer suspended",
    },
    (e) => isLocallySuspended(e.account),
  ),
];

const DOCUMENT_LABELS: Record<DocumentKind, string> = {
  "extended-description": "About text",
  "privacy-policy": "Privacy policy",
};

const isDocumentKind = (value: string): value is DocumentKind =>
  (DOCUMENT_KINDS as readonly string[]).includes(value);

const formatOf = (c: Context<HttpEnv>) => (field(c, "format") === "html" ? "html" : "text");

export const adminAreaRoutes: RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps) => {
  const { ctx } = deps;
  app.use("/admin", requireSession(deps));
  app.use("/admin/*", requireSession(deps));

  function allow(permission: Permission): MiddlewareHandler<HttpEnv> {
    return async (c, next) => {
      if (!roleMay(c.get("signedIn").role, permission)) {
        return htmlResponse(c, 403, forbiddenPage());
      }
      await next();
    };
  }
  for (const section of ADMIN_SECTIONS) {
    app.use(section.href, allow(section.permission));
    if (section.href !== "/admin") app.use(`${section.href}/*`, allow(section.permission));
  }

  async function frameOf(c: Context<HttpEnv>, notice: Notice | null): Promise<AdminFrame> {
    const signedIn = c.get("signedIn");
    return {
      account: signedIn.account,
      role: signedIn.role,
      csrf: await sessionCsrf(ctx, signedIn),
      notice,
    };
  }
  const me = (c: Context<HttpEnv>) => c.get("signedIn").account.id;

  /** Runs a change and shows `show` with its notice, or with the service's refusal. */
  async function act(
    change: () => Promise<string>,
    show: (status: Status, notice: Notice) => Promise<Response>,
  ): Promise<Response> {
    let text: string;
    try {
      text = await change();
    } catch (error) {
      const { status, notice } = refusal(error);
      return show(status, notice);
    }
    return show(200, { kind: "status", text });
  }

  app.get("/admin", async (c) =>
    htmlResponse(
      c,
      200,
      dashboardPage({ ...(await frameOf(c, null)), dashboard: await staffDashboard(ctx) }),
    ),
  );

  app.get("/admin/reports", async (c) => {
    const resolved = c.req.query("resolved") === "1" || c.req.query("resolved") === "true";
    const maxId = c.req.query("max_id");
    const page = await listAdminReports(
      ctx,
      { resolved },
      { limit: REPORTS_PER_PAGE, maxId: maxId && /^[0-9]{1,25}$/.test(maxId) ? maxId : undefined },
    );
    const older = page.details.length === REPORTS_PER_PAGE ? (page.oldestId ?? null) : null;
    return htmlResponse(
      c,
      200,
      reportsPage({ ...(await frameOf(c, null)), reports: page.details, resolved, older }),
    );
  });

  const REPORT = "/admin/reports/:id{[0-9]{1,25}}";
  async function showReportPage(
    c: Context<HttpEnv>,
    status: Status,
    notice: Notice | null,
  ): Promise<Response> {
    let details: ReportDetails;
    try {
      details = await showReport(ctx, c.req.param("id") as string);
    } catch (error) {
      const refused = refusal(error);
      return htmlResponse(
        c,
        refused.status,
        reportsPage({
          ...(await frameOf(c, refused.notice)),
          reports: [],
          resolved: false,
          older: null,
        }),
      );
    }
    const rules = await currentRules(ctx);
    return htmlResponse(c, status, reportPage({ ...(await frameOf(c, notice)), details, rules }));
  }
  app.get(REPORT, (c) => showReportPage(c, 200, null));

  const reportActions: Record<string, (c: Context<HttpEnv>, id: string) => Promise<string>> = {
    assign_to_self: async (c, id) => {
      await assignReport(ctx, id, me(c));
      return "The report is assigned to you.";
    },
    unassign: async (_c, id) => {
      await assignReport(ctx, id, null);
      return "The report is unassigned.";
    },
    resolve: async (c, id) => {
      await resolveReportAs(ctx, id, me(c));
      return "The report is resolved.";
    },
    reopen: async (_c, id) => {
      await reopenReport(ctx, id);
      return "The report is open again.";
    },
  };
  for (const [name, run] of Object.entries(reportActions)) {
    app.post(`${REPORT}/${name}`, (c) =>
      act(
        () => run(c, c.req.param("id")),
        (status, notice) => showReportPage(c, status, notice),
      ),
    );
  }

  async function showAccounts(c: Context<HttpEnv>, status: Status, notice: Notice | null) {
    const role = c.get("signedIn").role;
    const entries = (await localAccountsForStaff(ctx)).map((entry) => ({
      entry,
      actions: ACCOUNT_ACTIONS.filter((a) => roleMay(role, a.permission) && a.applies(entry)),
    }));
    return htmlResponse(c, status, accountsPage({ ...(await frameOf(c, notice)), entries }));
  }
  app.get("/admin/accounts", (c) => showAccounts(c, 200, null));
  app.post("/admin/accounts/:id{[0-9A-Za-z_-]{1,64}}/:action{[a-z_]{1,32}}", async (c) => {
    const id = c.req.param("id");
    const [account, user] = await Promise.all([
      ctx.storage.accounts.get(id),
      ctx.storage.users.get(id),
    ]);
    if (!account || !user || account.domain !== null) {
      return showAccounts(c, 404, { kind: "error", text: "No such local account." });
    }
    const entry = { account, user };
    const action = ACCOUNT_ACTIONS.find((a) => a.name === c.req.param("action"));
    if (!action || !roleMay(c.get("signedIn").role, action.permission)) {
      return showAccounts(c, 404, { kind: "error", text: "No such action." });
    }
    if (!action.applies(entry)) {
      return showAccounts(c, 422, {
        kind: "error",
        text: `${action.label} does not apply to ${account.username} now.`,
      });
    }
    const { account: me, role } = c.get("signedIn");
    return act(
      () => action.run(ctx, entry, { accountId: me.id, role }),
      (status, notice) => showAccounts(c, status, notice),
    );
  });

  async function showDomainBlocks(c: Context<HttpEnv>, status: Status, notice: Notice | null) {
    const blocks = await listDomainBlocks(ctx);
    return htmlResponse(c, status, domainBlocksPage({ ...(await frameOf(c, notice)), blocks }));
  }
  app.get("/admin/domain_blocks", (c) => showDomainBlocks(c, 200, null));
  app.post("/admin/domain_blocks", (c) =>
    act(
      async () => {
        const severity = field(c, "severity") || "suspend";
        if (!isDomainBlockSeverity(severity)) throw unprocessable("Unknown severity");
        const { block, severed } = await blockDomain(ctx, field(c, "domain"), {
          severity,
          rejectMedia: field(c, "reject_media") === "1",
          rejectReports: field(c, "reject_reports") === "1",
          obfuscate: field(c, "obfuscate") === "1",
          publicComment: field(c, "public_comment") || null,
        });
        return severity === "suspend"
          ? `Suspended ${block.domain}: ${severed} follows ended.`
          : `Blocked ${block.domain} (${severity}).`;
      },
      (status, notice) => showDomainBlocks(c, status, notice),
    ),
  );
  app.post("/admin/domain_blocks/remove", (c) =>
    act(
      async () => {
        const domain = field(c, "domain");
        return (await unblockDomain(ctx, domain))
          ? `Unblocked ${domain}.`
          : `${domain} was not blocked.`;
      },
      (status, notice) => showDomainBlocks(c, status, notice),
    ),
  );

  async function showRules(c: Context<HttpEnv>, status: Status, notice: Notice | null) {
    const rules = await currentRules(ctx);
    return htmlResponse(c, status, rulesPage({ ...(await frameOf(c, notice)), rules }));
  }
  app.get("/admin/rules", (c) => showRules(c, 200, null));
  app.post("/admin/rules", (c) =>
    act(
      async () => {
        const rule = await addRule(ctx, { text: field(c, "text"), hint: field(c, "hint") });
        return `Added the rule ${rule.text}.`;
      },
      (status, notice) => showRules(c, status, notice),
    ),
  );
  app.post("/admin/rules/remove", (c) =>
    act(
      async () => `Removed the rule ${(await removeRule(ctx, field(c, "id"))).text}.`,
      (status, notice) => showRules(c, status, notice),
    ),
  );

  async function showSettings(c: Context<HttpEnv>, status: Status, notice: Notice | null) {
    const [documents, terms] = await Promise.all([
      Promise.all(
        DOCUMENT_KINDS.map(async (kind) => ({
          kind,
          label: DOCUMENT_LABELS[kind],
          document: await getDocument(ctx, kind),
        })),
      ),
      listTerms(ctx),
    ]);
    return htmlResponse(
      c,
      status,
      serverSettingsPage({ ...(await frameOf(c, notice)), documents, terms }),
    );
  }
  app.get("/admin/settings", (c) => showSettings(c, 200, null));
  const DOCUMENT = "/admin/settings/documents/:kind{[a-z-]{1,40}}";
  app.post(DOCUMENT, (c) =>
    act(
      async () => {
        const kind = c.req.param("kind");
        if (!isDocumentKind(kind)) throw notFound("No such document");
        await setDocument(ctx, kind, { text: field(c, "text"), format: formatOf(c) });
        return `Published the ${DOCUMENT_LABELS[kind].toLowerCase()}.`;
      },
      (status, notice) => showSettings(c, status, notice),
    ),
  );
  app.post(`${DOCUMENT}/clear`, (c) =>
    act(
      async () => {
        const kind = c.req.param("kind");
        if (!isDocumentKind(kind)) throw notFound("No such document");
        await clearDocument(ctx, kind);
        return `Unpublished the ${DOCUMENT_LABELS[kind].toLowerCase()}.`;
      },
      (status, notice) => showSettings(c, status, notice),
    ),
  );
  app.post("/admin/settings/terms", (c) =>
    act(
      async () => {
        const date = field(c, "effective_date");
        const version = await setTerms(ctx, {
          text: field(c, "text"),
          format: formatOf(c),
          effectiveDate: date === "" ? undefined : date,
        });
        return `Published the terms of service effective ${version.effectiveDate}.`;
      },
      (status, notice) => showSettings(c, status, notice),
    ),
  );
  app.post("/admin/settings/terms/remove", (c) =>
    act(
      async () => {
        const date = field(c, "effective_date");
        return (await removeTerms(ctx, date))
          ? `Withdrew the terms of service effective ${date}.`
          : `No terms of service take effect on ${date}.`;
      },
      (status, notice) => showSettings(c, status, notice),
    ),
  );
};
