// The `record view` page in a real headless Chromium, offline: it must make no request, log no error, raise
// no page error and violate no CSP directive, while search, facets, folding, keyboard and the URL hash work
// and the hostile entries stay text. Screenshots (light and dark, desktop and phone) go to tests/.tmp/view/.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { ROOT, tmpdir } from "../js/helpers.js";
import { HOSTILE, eid, makePage, writeFixture } from "../js/view-fixture.js";
import { allTrouble, launch, openWatched } from "./browser.js";

export const SHOTS = path.join(ROOT, "tests", ".tmp", "view");
let browser;
let url;

before(async () => {
  const dir = tmpdir("view-browser-");
  const out = path.join(dir, "view.html");
  const r = await makePage(["--file", writeFixture(dir)], { out });
  assert.equal(r.code, 0, r.stderr);
  url = pathToFileURL(out).href;
  browser = await launch();
  fs.mkdirSync(SHOTS, { recursive: true });
});

after(async () => {
  await browser?.close();
});

/** Opens the page, runs `body(page)`, then asserts that nothing the watch looks for happened. */
async function withPage(body, opts = {}, hash = "") {
  const { page, trouble } = await openWatched(browser.context, url + hash, opts);
  try {
    await body(page);
    assert.deepEqual(await allTrouble(page, trouble), []);
  } finally {
    await page.close();
  }
}

const text = (page, sel) => page.locator(sel).first().textContent();
const count = (page, sel) => page.locator(sel).count();

test("the page shows the header's counts and every entry, with nothing fetched and nothing logged", async () => {
  await withPage(async (page) => {
    assert.match(await text(page, "#facts"), /13 of 13 entries shown · window: since 2026-10-31T12:00:00.000Z \(30d\) · every repository · 2 quarantined · 1 damaged line skipped/);
    assert.equal(await text(page, "#status"), "13 of 13 entries on this page match");
    assert.equal(await count(page, "article.entry"), 13);
    assert.deepEqual(await page.locator("h3.day").allTextContents(), ["2026-11-30", "2026-11-29", "2026-11-28", "2026-11-27"]);
    assert.equal(await count(page, ".uplot"), 5);
    assert.equal(await text(page, "#quarantine summary"), "Quarantine (2)");
  });
});

test("hostile entries stay text: no script runs, no element is made from them", async () => {
  await withPage(async (page) => {
    const hostile = page.locator(`article.entry[data-i]`, { hasText: "hostile" }).first();
    assert.equal(await hostile.locator(".title").textContent(), `hostile — ${HOSTILE.script.replace(/\s+/g, " ")}`);
    await hostile.locator("details.members > summary").click();
    await hostile.locator("details.line > summary").click();
    await hostile.locator("details.line pre").waitFor(); // both are drawn on their toggle events
    await hostile.locator(".member pre.value").first().waitFor();
    const values = await hostile.locator(".member pre.value").allTextContents();
    for (const v of [HOSTILE.script, HOSTILE.img, HOSTILE.link, HOSTILE.comment]) assert.ok(values.includes(v), v);
    const facts = await page.evaluate(() => ({
      pwned: window.__pwned ?? null,
      scripts: document.scripts.length,
      imgs: document.images.length,
      links: document.querySelectorAll("a[href], iframe, object, embed, link, svg").length,
    }));
    assert.deepEqual(facts, { pwned: null, scripts: 2, imgs: 0, links: 0 });
    // Hostile stamps are facet values and stamps like any other.
    assert.ok((await page.locator('fieldset[data-field="model"] label').allTextContents()).includes(`${HOSTILE.svg}1`));
    assert.ok((await page.locator('fieldset[data-field="agent"] label').allTextContents()).includes(`${HOSTILE.attr}1`));
    assert.match(await hostile.locator(".stamps").textContent(), new RegExp(`model ${HOSTILE.svg.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")} · agent `));
  });
});

test("search over every entry highlights the match and keeps the query in the hash", async () => {
  await withPage(async (page) => {
    await page.keyboard.press("/");
    await page.keyboard.type("mismatched");
    await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("4 of"));
    assert.equal(await count(page, "article.entry"), 4);
    const marks = await page.locator("article.entry mark").allTextContents();
    assert.ok(marks.length >= 4 && marks.every((m) => m.toLowerCase() === "mismatched"), JSON.stringify(marks));
    // The hash follows once typing pauses.
    await page.waitForFunction(() => location.hash === "#q=mismatched");
    // A term found only in a member opens the members, so the highlight shows.
    await page.fill("#q", "place that can panic");
    await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("1 of"));
    assert.equal(await page.locator("article.entry details.members").first().evaluate((d) => d.open), true);
  });
});

test("facets filter with live counts, and a reloaded hash gives the same view", async () => {
  await withPage(async (page) => {
    await page.locator('fieldset[data-field="capture"] label', { hasText: "auto" }).click();
    await page.waitForFunction(() => document.querySelector("#status").textContent.startsWith("7 of"));
    const repoCounts = await page.locator('fieldset[data-field="repo"] label').allTextContents();
    assert.deepEqual(repoCounts, ["widgets5", "gadgets2"]);
    // The capture facet's own counts stay those of every capture.
    assert.deepEqual(await page.locator('fieldset[data-field="capture"] label').allTextContents(), ["auto7", "agent4", "cli1", "mcp1"]);
    assert.equal(await page.evaluate(() => location.hash), "#capture=auto");
  });
  await withPage(
    async (page) => {
      assert.equal(await text(page, "#status"), "5 of 13 entries on this page match");
      assert.equal(await page.locator('fieldset[data-field="capture"] input[value="auto"]').isChecked(), true);
      assert.equal(await page.locator('fieldset[data-field="repo"] input[value="widgets"]').isChecked(), true);
    },
    {},
    "#capture=auto&repo=widgets",
  );
});

test("keys: j/k move, o opens, ? shows the help, and the selected entry survives a reload", async () => {
  let hash;
  await withPage(async (page) => {
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("j");
    await page.keyboard.press("k");
    const selected = page.locator("article.entry.selected");
    assert.equal(await selected.count(), 1);
    assert.equal(await selected.getAttribute("data-i"), await page.locator("article.entry").nth(1).getAttribute("data-i"));
    hash = await page.evaluate(() => location.hash);
    assert.match(hash, /^#sel=[0-9a-z]{13}$/);
    await page.keyboard.press("o");
    assert.equal(await selected.locator("details.members").evaluate((d) => d.open), true);
    await page.keyboard.press("?");
    assert.equal(await page.locator("#help").isVisible(), true);
    assert.deepEqual(await page.locator("#help dt").allTextContents(), ["/", "j / k", "o", "Esc", "?"]);
    await page.keyboard.press("Escape");
    assert.equal(await page.locator("#help").isVisible(), false);
  });
  await withPage(async (page) => {
    assert.equal(await page.locator("article.entry.selected").count(), 1);
    assert.equal(`#sel=${await page.evaluate(() => document.querySelector("article.entry.selected .line summary").textContent.split("eid ")[1])}`, hash);
  }, {}, hash);
});

test("episodes fold the runs of a fingerprint; a run and the entry's stored line are one click away", async () => {
  await withPage(async (page) => {
    const eps = page.locator("details.episode");
    assert.equal(await eps.count(), 3);
    const green = page.locator("details.episode.green");
    assert.match(await green.locator(":scope > summary").textContent(), /^3× cargo test · widgets · .* · green after 15 min/);
    await green.locator(":scope > summary").click();
    assert.equal(await green.locator("ol.runs li").count(), 3);
    assert.equal(await green.locator("ul.lessons li").count(), 1);
    await green.locator("ol.runs li button").nth(1).click();
    const sel = page.locator("article.entry.selected");
    assert.equal(await page.evaluate(() => location.hash), `#sel=${eid(4)}`);
    await sel.locator("details.line > summary").click();
    assert.equal(await sel.locator(".show code").textContent(), `record show ${eid(4)}`);
    // Copy puts the command on the clipboard, or, where the page may not write it, selects it to copy by hand.
    await sel.locator(".show button.copy").click();
    await page.waitForFunction(() => document.querySelector("article.entry.selected .show button.copy").textContent === "copied" || getSelection().toString() !== "");
    const copied = await page.evaluate(() => ({ said: document.querySelector("article.entry.selected .show button.copy").textContent, selected: getSelection().toString() }));
    assert.ok(copied.said === "copied" || copied.selected === `record show ${eid(4)}`, JSON.stringify(copied));
    assert.match(await sel.locator("details.line pre").textContent(), /^\{"ts":".*"fp":"g1_00112233445566aa"/);
    // A subagent's brief and answer are folded with their sizes.
    const sub = page.locator("article.entry", { hasText: "subagent.completed" }).first();
    await sub.locator("details.members > summary").click();
    // The members are drawn on the details' toggle event, which the browser fires after the click returns.
    const longs = sub.locator("details.member.long > summary");
    await longs.nth(1).waitFor();
    const long = await longs.allTextContents();
    // (result is a lead member, so it comes first.)
    assert.deepEqual(long, ["result 1.3 KiB", "prompt 2.1 KiB"]);
  });
});

test("light and dark, desktop and phone: the page fits and the screenshots are kept", async () => {
  for (const [width, height, name] of [[1280, 900, "desktop"], [390, 844, "phone"]]) {
    for (const scheme of ["light", "dark"]) {
      await withPage(async (page) => {
        const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.equal(bg, scheme === "dark" ? "rgb(22, 24, 27)" : "rgb(251, 251, 250)");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        assert.equal(overflow, 0, `${name} ${scheme}: ${overflow}px wider than the window`);
        await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}.png`) });
        await page.evaluate(() => document.querySelector(".main").scrollIntoView());
        await page.screenshot({ path: path.join(SHOTS, `${name}-${scheme}-timeline.png`) });
      }, { width, height, colorScheme: scheme });
    }
  }
  // The toggle overrides the system's scheme and is kept in the hash.
  await withPage(async (page) => {
    await page.click("#theme");
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    assert.equal(await page.evaluate(() => location.hash), "#theme=dark");
  });
  for (const f of ["desktop-light", "desktop-dark", "phone-light", "phone-dark"]) assert.ok(fs.statSync(path.join(SHOTS, `${f}.png`)).size > 10_000, f);
});

test("the watch itself sees a request, a console error, a page error and a CSP violation", async () => {
  const dir = tmpdir("view-watch-");
  const bad = path.join(dir, "bad.html");
  // A page of the same policy as the view's, with one inline script it does not allow and one it does.
  const allowed = `document.documentElement.dataset.ready = "1"; console.error("logged"); setTimeout(() => { throw new Error("thrown"); }, 0);`;
  const hash = (await import("node:crypto")).createHash("sha256").update(allowed).digest("base64");
  fs.writeFileSync(
    bad,
    `<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-${hash}'; img-src 'none'">` +
      `<img src="http://127.0.0.1:9/pixel.png"><script>window.__ran = 1</script><script>${allowed}</script>`,
  );
  const { page, trouble } = await openWatched(browser.context, pathToFileURL(bad).href);
  await page.waitForTimeout(200);
  const seen = (await allTrouble(page, trouble)).join("\n");
  await page.close();
  assert.match(seen, /console error: logged/);
  assert.match(seen, /page error: thrown/);
  assert.match(seen, /csp: script-src-elem inline/);
  assert.match(seen, /csp: img-src http:\/\/127\.0\.0\.1:9\/pixel\.png/);
  // Without a policy, the same image is a request, which the watch aborts and lists.
  const open = path.join(dir, "open.html");
  fs.writeFileSync(open, `<!doctype html><img src="http://127.0.0.1:9/pixel.png"><script>document.documentElement.dataset.ready = "1"</script>`);
  const o = await openWatched(browser.context, pathToFileURL(open).href);
  await o.page.waitForTimeout(200);
  const seenOpen = (await allTrouble(o.page, o.trouble)).join("\n");
  await o.page.close();
  assert.match(seenOpen, /request: http:\/\/127\.0\.0\.1:9\/pixel\.png/);
});
