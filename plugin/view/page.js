// The page: one HTML file holding its own script, styles and data. A Content-Security-Policy meta tag allows
// exactly the page's script and style (by their SHA-256) and nothing else, so the page can make no request of
// any kind and no recorded text can run. The data sits in a <script type="application/json"> element with
// `<`, U+2028 and U+2029 escaped; the script shows every recorded string as text.

import { fs, nodeCrypto } from "../builtins.js";
import { scriptSafeJson } from "./data.js";

const DIST = new URL("./dist/", import.meta.url);

/** Thrown when the page's script and styles were not built (a checkout before scripts/build.sh). */
export class AssetsMissing extends Error {}

/** The built script and styles: { script, style }. */
export function loadAssets(dir = DIST) {
  const read = (name) => {
    try {
      return fs.readFileSync(new URL(name, dir), "utf8");
    } catch (e) {
      throw new AssetsMissing(`the page's ${name} is missing (${e?.code ?? e}): run npm run build`);
    }
  };
  const script = read("page.js");
  const style = read("page.css");
  // Either would end its element early; the build never makes them, and a page must not be made from them.
  if (/<\/script/i.test(script) || /<!--/.test(script) || /<\/style/i.test(style)) throw new AssetsMissing("the built assets contain a closing tag");
  return { script, style };
}

const sha256 = (text) => `'sha256-${nodeCrypto.createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** The Content-Security-Policy for a page with this script and style. */
export function policyOf({ script, style }) {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)}`,
    `style-src ${sha256(style)}`,
    "img-src 'none'",
    "font-src 'none'",
    "connect-src 'none'",
    "media-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "manifest-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** Bytes of the page around its data (for the size cap). */
export function shellBytes(assets) {
  return Buffer.byteLength(pageHtml(assets, ""), "utf8");
}

/** The page's HTML with `json` (already script-safe) as its data. */
export function pageHtml(assets, json) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policyOf(assets)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Recordings</title>
<style>${assets.style}</style>
</head>
<body>
<noscript>This page needs JavaScript to show the recordings; its data is the JSON in the element with id "data".</noscript>
<div id="app"></div>
<script type="application/json" id="data">${json}</script>
<script>${assets.script}</script>
</body>
</html>
`;
}

/** The whole page for `data` (from viewData). */
export function buildPage(data, assets) {
  return pageHtml(assets, scriptSafeJson(JSON.stringify(data)));
}
