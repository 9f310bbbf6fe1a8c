// The settings pages behind the browser session: /settings/aliases, /settings/migration,
// /settings/import, /settings/export (CSV downloads and the account archive). They call the
// services the CLI calls (moves/, imports/, archives/), and turn their errors into the page
// with the message and the error's status.

import type { Context, Hono } from "hono";
import { movedToOf } from "../../domain/account.ts";
import { isImportType } from "../../domain/csv-import.ts";
import { AppError } from "../../domain/errors.ts";
import { roleMay } from "../../domain/permissions.ts";
import { archivesOf, requireArchive } from "../../services/archives/archive-records.ts";
import { archiveStream } from "../../services/archives/build-archive.ts";
import { requestArchive } from "../../services/archives/request-archive.ts";
import { verifyPassword } from "../../services/auth/passwords.ts";
import { exportCsv } from "../../services/imports/export-csv.ts";
import { importsOf } from "../../services/imports/import-records.ts";
import { startImport } from "../../services/imports/start-import.ts";
import { addAlias, listAliases, removeAlias } from "../../services/moves/aliases.ts";
import { moveAccount } from "../../services/moves/move-account.ts";
import type { RouteModule } from "../app.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { htmlResponse } from "../oauth/html.ts";
import { requireSession, sessionCsrf } from "../session/session.ts";
import {
  aliasesPage,
  exportPage,
  importPage,
  migrationPage,
  type Notice,
  type SettingsFrame,
} from "./pages.ts";

export type Status = 200 | 400 | 403 | 404 | 413 | 422 | 429;

/** A text field of the checked form, trimmed ("" when absent). */
export function field(c: Context<HttpEnv>, name: string): string {
  const value = c.get("form")[name];
  return typeof value === "string" ? value.trim() : "";
}

/** A service's refusal as the page's notice and status; anything else is a real failure. */
export function refusal(error: unknown): { status: Status; notice: Notice } {
  if (error instanceof AppError && error.status >= 400 && error.status < 500) {
    const status = ([400, 403, 404, 413, 422, 429] as const).find((s) => s === error.status) ?? 422;
    return { status, notice: { kind: "error", text: error.message } };
  }
  throw error;
}

export const settingsRoutes: RouteModule = (app: Hono<HttpEnv>, deps: HttpDeps) => {
  const { ctx } = deps;
  app.use("/settings", requireSession(deps));
  app.use("/settings/*", requireSession(deps));

  async function frameOf(c: Context<HttpEnv>, notice: Notice | null): Promise<SettingsFrame> {
    const signedIn = c.get("signedIn");
    // The account as stored now (an alias added a moment ago, a move just made).
    const account = (await ctx.storage.accounts.get(signedIn.account.id)) ?? signedIn.account;
    const staff = roleMay(signedIn.role, "view_dashboard");
    return { account, csrf: await sessionCsrf(ctx, signedIn), notice, staff };
  }

  const username = (c: Context<HttpEnv>) => c.get("signedIn").account.username;

  app.get("/settings", (c) => c.redirect("/settings/aliases", 303));

  async function showAliases(c: Context<HttpEnv>, status: Status, notice: Notice | null) {
    const aliases = await listAliases(ctx, username(c));
    return htmlResponse(c, status, aliasesPage({ ...(await frameOf(c, notice)), aliases }));
  }
  app.get("/settings/aliases", (c) => showAliases(c, 200, null));
  app.post("/settings/aliases", async (c) => {
    const alias = field(c, "alias");
    try {
      await addAlias(ctx, username(c), alias);
    } catch (error) {
      const { status, notice } = refusal(error);
      return showAliases(c, status, notice);
    }
    return showAliases(c, 200, { kind: "status", text: `Added ${alias} as an alias.` });
  });
  app.post("/settings/aliases/remove", async (c) => {
    const alias = field(c, "alias");
    try {
      await removeAlias(ctx, username(c), alias);
    } catch (error) {
      const { status, notice } = refusal(error);
      return showAliases(c, status, notice);
    }
    return showAliases(c, 200, { kind: "status", text: `Removed the alias ${alias}.` });
  });

  async function showMigration(
    c: Context<HttpEnv>,
    status: Status,
    notice: Notice | null,
    target = "",
  ) {
    const frame = await frameOf(c, notice);
    return htmlResponse(
      c,
      status,
      migrationPage({ ...frame, movedTo: movedToOf(frame.account), target }),
    );
  }
  app.get("/settings/migration", (c) => showMigration(c, 200, null));
  app.post("/settings/migration", async (c) => {
    const target = field(c, "acct");
    const password = c.get("form").current_password;
    const user = c.get("signedIn").user;
    if (typeof password !== "string" || !(await verifyPassword(password, user.passwordHash))) {
      return showMigration(c, 422, { kind: "error", text: "The password is not correct." }, target);
    }
    try {
      const { target: moved } = await moveAccount(ctx, username(c), target);
      return showMigration(c, 200, {
        kind: "status",
        text: `Your followers are being moved to ${moved.uri}.`,
      });
    } catch (error) {
      const { status, notice } = refusal(error);
      return showMigration(c, status, notice, target);
    }
  });

  async function showImports(c: Context<HttpEnv>, status: Status, notice: Notice | null) {
    const imports = await importsOf(ctx, c.get("signedIn").account.id);
    return htmlResponse(c, status, importPage({ ...(await frameOf(c, notice)), imports }));
  }
  app.get("/settings/import", (c) => showImports(c, 200, null));
  app.post("/settings/import", async (c) => {
    const form = c.get("form");
    const type = field(c, "type");
    const mode = field(c, "mode") === "overwrite" ? "overwrite" : "merge";
    if (!isImportType(type)) {
      return showImports(c, 422, { kind: "error", text: "Choose what the file holds." });
    }
    const file = form.data;
    if (!(file instanceof File)) {
      return showImports(c, 422, { kind: "error", text: "Choose a CSV file to upload." });
    }
    try {
      // Bytes, not the file's own size claim; the service refuses a file past the cap (413).
      const record = await startImport(ctx, username(c), type, mode, await file.text());
      return showImports(c, 200, {
        kind: "status",
        text: `The file is being imported: ${record.progress.length} rows.`,
      });
    } catch (error) {
      const { status, notice } = refusal(error);
      return showImports(c, status, notice);
    }
  });

  async function showExport(c: Context<HttpEnv>, status: Status, notice: Notice | null) {
    const archives = await archivesOf(ctx, c.get("signedIn").account.id);
    return htmlResponse(c, status, exportPage({ ...(await frameOf(c, notice)), archives }));
  }
  app.get("/settings/export", (c) => showExport(c, 200, null));
  app.get("/settings/export/:file{[a-z-]+\\.csv}", async (c) => {
    const type = c.req.param("file").slice(0, -".csv".length);
    if (!isImportType(type)) return c.notFound();
    const text = await exportCsv(ctx, username(c), type);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="${type}.csv"`);
    c.header("Cache-Control", "no-store");
    return c.body(text);
  });
  app.post("/settings/export/archive", async (c) => {
    try {
      await requestArchive(ctx, c.get("signedIn").account.id);
    } catch (error) {
      const { status, notice } = refusal(error);
      return showExport(c, status, notice);
    }
    return showExport(c, 200, {
      kind: "status",
      text: "Your archive is being prepared: reload this page to follow it.",
    });
  });
  app.get("/settings/export/archive/:id{[0-9]{1,25}}", async (c) => {
    // Only the owner's own archives are found: another's id is not found for them.
    let file: Awaited<ReturnType<typeof archiveStream>> = null;
    let createdAt = "";
    try {
      const archive = await requireArchive(ctx, c.get("signedIn").account.id, c.req.param("id"));
      createdAt = archive.createdAt;
      file = await archiveStream(ctx, archive);
    } catch (error) {
      if (!(error instanceof AppError && error.status === 404)) throw error;
    }
    if (!file) return showExport(c, 404, { kind: "error", text: "This archive is not available." });
    const stamp = createdAt.replace(/[^0-9]/g, "").slice(0, 14);
    c.header("Content-Type", "application/zip");
    c.header("Content-Disposition", `attachment; filename="archive-${stamp}.zip"`);
    c.header("Cache-Control", "no-store");
    // Streamed from the file host, never whole in memory.
    c.header("Content-Length", String(file.size));
    return c.body(file.body);
  });
};
