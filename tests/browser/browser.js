// Headless Chromium from the distribution (scripts/chromium.sh installs it), driven by playwright-core: no
// browser is downloaded. Each page is watched for any network request, console error, page error and
// Content-Security-Policy violation; a test asserts the watch stayed empty.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** A browser with a fresh profile; close() removes the profile too. */
export async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "view-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: FLAGS, headless: true, offline: true });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Opens `url` in a new page of `context` and records what must not happen: { page, trouble }. Every request
 *  but the page's own file is aborted and listed; CSP violations are caught inside the page. */
export async function openWatched(context, url, { width = 1280, height = 900, colorScheme = "light" } = {}) {
  const page = await context.newPage();
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme });
  const trouble = [];
  const target = url.split("#")[0];
  await page.route("**/*", (route) => {
    const u = route.request().url();
    if (u.split("#")[0] === target) return route.continue();
    trouble.push(`request: ${u}`);
    return route.abort();
  });
  page.on("request", (r) => {
    if (r.url().split("#")[0] !== target) trouble.push(`request seen: ${r.url()}`);
  });
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") trouble.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => trouble.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto(url);
  await page.waitForSelector("html[data-ready='1']");
  return { page, trouble };
}

/** The CSP violations the page saw, with `trouble`. */
export async function allTrouble(page, trouble) {
  const csp = await page.evaluate(() => window.__csp ?? []);
  return [...trouble, ...csp.map((c) => `csp: ${c}`)];
}
