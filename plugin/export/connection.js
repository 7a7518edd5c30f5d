// Where the export goes: the connection settings from --to, AI_RECORDINGS_EXPORT_URL or the standard PG*
// variables, shown only with the password redacted, and every message about it scrubbed of the password.

import { settingsOf } from "../settings.js";

export const REDACTED = "[REDACTED]";

export class ConnectionError extends Error {}

/** What a user sees of a connection string: the password (in the user part or a `password=` parameter)
 *  replaced. Text that is not a URL is shown as a placeholder, since it could be anything. */
export function redactUrl(text) {
  let u;
  try {
    u = new URL(text);
  } catch {
    return "(a connection string that is not a URL)";
  }
  if (u.password) u.password = REDACTED;
  for (const k of [...u.searchParams.keys()]) if (/^(password|pass|pwd)$/i.test(k)) u.searchParams.set(k, REDACTED);
  return u.toString().replace(encodeURIComponent(REDACTED), REDACTED).replace(encodeURIComponent(REDACTED), REDACTED);
}

/** `text` with every secret (as given, and percent-encoded) replaced, for any message that could quote one. */
export function scrub(text, secrets) {
  let out = String(text);
  for (const s of secrets) {
    if (!s) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join(REDACTED);
  }
  return out;
}

/**
 * The connection: { config (for pg.Client), shown (redacted, for messages), secrets, source }. `to` is the
 * --to flag (`flag` names it: `record sync` says --from); else AI_RECORDINGS_EXPORT_URL; else the PG*
 * variables (PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD). A PGPASSWORD fills in a URL without a password.
 * Throws ConnectionError (without the text when it is not a URL).
 */
export function connectionOf({ to, env, flag = "--to" }) {
  const s = settingsOf(env);
  const url = to ?? s.exportUrl;
  const secrets = [env.PGPASSWORD].filter(Boolean);
  const base = { application_name: "record export", connectionTimeoutMillis: 10_000 };
  if (url === undefined) {
    if (!env.PGHOST && !env.PGDATABASE && !env.PGUSER && !env.PGSERVICE) {
      throw new ConnectionError(`no database: give ${flag} postgres://USER@HOST:PORT/DB, or set AI_RECORDINGS_EXPORT_URL (or the PG* variables)`);
    }
    const config = { ...base, host: env.PGHOST, port: env.PGPORT ? Number(env.PGPORT) : undefined, user: env.PGUSER, database: env.PGDATABASE, password: env.PGPASSWORD };
    const shown = `postgres://${env.PGUSER ?? ""}@${env.PGHOST ?? "localhost"}:${env.PGPORT ?? 5432}/${env.PGDATABASE ?? env.PGUSER ?? ""}`;
    return { config, shown, secrets, source: "PG* variables" };
  }
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new ConnectionError("the database URL is not a URL (expected postgres://USER:PASSWORD@HOST:PORT/DB)");
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") {
    throw new ConnectionError(`the database URL must start with postgres:// or postgresql://, not ${u.protocol}//`);
  }
  const password = u.password ? decodeURIComponent(u.password) : u.searchParams.get("password");
  if (password) secrets.push(password, u.password);
  const config = { ...base, connectionString: url };
  if (!password && env.PGPASSWORD) config.password = env.PGPASSWORD;
  return { config, shown: redactUrl(url), secrets, source: to !== undefined ? flag : "AI_RECORDINGS_EXPORT_URL" };
}

/** A database error as one plain line, the password scrubbed out. */
export function describeDbError(e, conn) {
  const code = e?.code;
  let msg = e?.message ?? String(e);
  if (code === "28P01") msg = `password authentication failed for user "${e?.message?.match(/user "([^"]*)"/)?.[1] ?? "?"}": check the password in the URL or PGPASSWORD`;
  else if (code === "ECONNREFUSED") msg = "the server refused the connection (is PostgreSQL running there, on that port?)";
  else if (code === "ENOTFOUND") msg = "the server's host name does not resolve";
  else if (code === "57P01" || code === "57P02" || code === "57P03") msg = `the server is shutting down or starting up (${msg})`;
  else if (/Connection terminated/i.test(msg)) msg = "the connection to the server was lost";
  return scrub(`${msg}${code && !/^E/.test(code) ? ` [${code}]` : ""}`, conn?.secrets ?? []);
}

/** Passwords in any URL-looking argument, for a usage message that quotes one. */
export function urlSecrets(argv) {
  const out = [];
  for (const a of argv) {
    const m = /:\/\/[^:/@\s]*:([^@\s]*)@/.exec(a);
    if (m) out.push(m[1], decodeURIComponentSafe(m[1]));
  }
  return out;
}

function decodeURIComponentSafe(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
