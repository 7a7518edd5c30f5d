// `record view`: see its help text below.

import { byteSize } from "../values.js";
import { builtin, path } from "../builtins.js";
import { gitContext } from "../git.js";
import { replaceFile } from "../io.js";
import { parseTime, resolveFile } from "../read/index.js";
import { packageInfo } from "../package-info.js";
import { DEFAULT_MAX_BYTES, DEFAULT_WINDOW, viewData } from "../view/data.js";
import { AssetsMissing, buildPage, loadAssets, shellBytes } from "../view/page.js";
import { UsageError } from "./args.js";
import { commandArgs } from "./prologue.js";
import { ioOf, usage } from "./output.js";

export const HELP = `record view - the recordings as one offline HTML page, to look at in a browser

Usage: record view [OPTIONS]

Writes one self-contained HTML file (its script, styles and data inside it; it makes no request of any
kind) and prints its path and file:// URL. The page has charts, failure episodes folded by fingerprint,
a timeline by day, repository and session, facets with live counts, a search over every entry on it,
each entry's stored line and eid; keys: / search, j/k move, o open, ? help.

Options:
  --file PATH        the recordings file (default: env AI_RECORDINGS_FILE, else ~/git/ai_recordings.jsonl)
  --repo NAME        entries whose repo, origin or git_dir is NAME (repeat for more)
  --all              every repository (default: the repository of the working directory, else every one)
  --session ID       entries of this session (repeat for more)
  --since T          entries at or after T: an age (${DEFAULT_WINDOW}, the default; 12h, 2w), a time
                     (2026-11-29), or "all"
  --max-bytes N      the page's size cap (default ${DEFAULT_MAX_BYTES}; K and M suffixes, e.g. 2M); the oldest
                     entries are left off and the page says so
  -o, --output FILE  where to write the page (default: <stem>.view.html beside the recordings file)
  --open             open the page in the desktop's browser
  --json             print {"file","url","shown","total","left_out","quarantined","bytes"}
  -h, --help         show this help
`;

const OPTIONS = {
  "--file": { key: "file" },
  "--repo": { key: "repo", multi: true },
  "--all": { key: "all", flag: true },
  "--session": { key: "session", multi: true },
  "--since": { key: "since" },
  "--max-bytes": { key: "maxBytes" },
  "--output": { key: "output" },
  "-o": { key: "output" },
  "--open": { key: "open", flag: true },
};

function sizeOf(text) {
  const n = byteSize(text);
  if (n === undefined) throw new UsageError(`--max-bytes needs a size such as 5000000 or 5M, not "${text}"`);
  if (n < 64 * 1024) throw new UsageError(`--max-bytes: a page needs at least 64K for its script and styles`);
  return n;
}

/** Starts the desktop's opener on `file`, detached; `onFail` is told when it cannot start. */
function openFile(file, onFail) {
  const cmd = process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  try {
    const child = builtin("node:child_process").spawn(cmd, [file], { detached: true, stdio: "ignore" });
    child.on("error", (e) => onFail(`${cmd}: ${e?.code ?? e?.message ?? e}`));
    child.unref();
  } catch (e) {
    onFail(`${cmd}: ${e?.code ?? e?.message ?? e}`);
  }
}

/** record view */
export async function view(argv, io0) {
  const io = ioOf(io0);
  let opts;
  let maxBytes = DEFAULT_MAX_BYTES;
  try {
    opts = commandArgs(HELP, argv, OPTIONS, io);
    if (!opts) return 0;
    if (opts.maxBytes !== undefined) maxBytes = sizeOf(opts.maxBytes);
    if (opts.all && opts.repo) throw new UsageError("--all and --repo choose the repositories two ways: give one");
    const since = opts.since ?? DEFAULT_WINDOW;
    if (since !== "all" && Number.isNaN(parseTime(since, io.now()))) throw new UsageError(`--since: "${since}" is neither an age (30d, 12h) nor a time (2026-11-29), nor "all"`);
  } catch (e) {
    if (e instanceof UsageError) return usage(io.stderr, "view", e);
    throw e;
  }
  let assets;
  try {
    assets = loadAssets();
  } catch (e) {
    if (!(e instanceof AssetsMissing)) throw e;
    io.stderr.write(`record view: ${e.message}\n`);
    return 1;
  }
  const filter = { repo: opts.repo ?? [], session: opts.session ?? [] };
  if (!opts.all && !opts.repo) {
    const here = gitContext(io.cwd);
    if (here?.git_dir) filter.gitDir = here.git_dir;
  }
  const main = resolveFile({ file: opts.file, env: io.env, cwd: io.cwd }).file;
  const out = path.resolve(io.cwd, opts.output ?? main.replace(/\.jsonl$/, "") + ".view.html");
  const data = viewData({
    file: opts.file,
    env: io.env,
    cwd: io.cwd,
    now: io.now,
    filter,
    since: opts.since,
    maxBytes,
    reserve: shellBytes(assets),
    version: packageInfo().version,
  });
  const html = buildPage(data, assets);
  try {
    // The default place is beside the recordings, whose directory may not exist yet (nothing recorded).
    if (opts.output === undefined) builtin("node:fs").mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
    replaceFile(builtin("node:fs"), out, html);
  } catch (e) {
    io.stderr.write(`record view: cannot write ${out}: ${e?.code ?? e?.message ?? e}\n`);
    return 1;
  }
  const url = builtin("node:url").pathToFileURL(out).href;
  const m = data.meta;
  const bytes = Buffer.byteLength(html, "utf8");
  if (opts.json) {
    io.stdout.write(JSON.stringify({ file: out, url, shown: m.shown, total: m.total, left_out: m.left_out, quarantined: m.quarantined, bytes }) + "\n");
  } else {
    io.stdout.write(`${out}\n${url}\n`);
    const scope = filter.gitDir ? `the repository at ${filter.gitDir} (--all for every one)` : filter.repo.length ? `repository ${filter.repo.join(", ")}` : "every repository";
    io.stderr.write(`record view: ${m.shown} of ${m.total} entries of ${scope}${m.left_out ? `; the ${m.left_out} oldest left off to stay under ${maxBytes} bytes` : ""}; ${m.quarantined} quarantined\n`);
  }
  if (opts.open) openFile(out, (why) => io.stderr.write(`record view: could not start a browser (${why}); open ${url}\n`));
  return 0;
}
