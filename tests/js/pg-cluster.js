// A throwaway PostgreSQL cluster for the export suites and bench: initdb in a fresh temporary directory,
// listening on 127.0.0.1 only at a free port, password (SCRAM) authentication for TCP. The server refuses to
// run as root, so as root the server's binaries run as the `postgres` user, which then owns the directory.
// scripts/postgres.sh installs Debian's package when its binaries are missing.
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const running = new Set();

process.on("exit", () => {
  for (const c of running) c.stopSync("immediate");
});

function binDir() {
  const r = spawnSync("bash", [path.join(ROOT, "scripts", "postgres.sh")], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`scripts/postgres.sh failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** A port nobody listens on right now (the kernel's pick, released again). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function run(bin, args, asUser) {
  const argv = asUser ? ["--reuid=postgres", "--regid=postgres", "--clear-groups", bin, ...args] : args;
  const r = spawnSync(asUser ? "setpriv" : bin, argv, { encoding: "utf8", cwd: os.tmpdir() });
  if (r.status !== 0) throw new Error(`${path.basename(bin)} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/**
 * Starts a cluster. Returns { host, port, user, password, dir, url(db), query(sql, params, db), createDatabase(),
 * stop(mode), start(), destroy() }. `stop("fast")` is a clean shutdown that disconnects sessions; the data
 * stays, so `start()` brings the same cluster back.
 */
export async function startCluster({ user = "recorder", password = "pw-" + Math.random().toString(36).slice(2) } = {}) {
  const bin = binDir();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rec-pg-"));
  const data = path.join(dir, "data");
  const pwfile = path.join(dir, "pw");
  fs.writeFileSync(pwfile, password + "\n", { mode: 0o600 });
  if (asRoot) {
    const id = (flag) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
    fs.chownSync(dir, id("-u"), id("-g"));
    fs.chownSync(pwfile, id("-u"), id("-g"));
  }
  run(path.join(bin, "initdb"), ["-D", data, "-U", user, "-E", "UTF8", "--locale=C", "--auth-host=scram-sha-256", "--auth-local=trust", `--pwfile=${pwfile}`], asRoot);
  const port = await freePort();
  const ctl = path.join(bin, "pg_ctl");
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  let nth = 0;
  const cluster = {
    host: "127.0.0.1",
    port,
    user,
    password,
    dir,
    url(db = "postgres", pw = password) {
      return `postgres://${encodeURIComponent(user)}:${encodeURIComponent(pw)}@127.0.0.1:${port}/${db}`;
    },
    start() {
      run(ctl, ["-D", data, "-o", opts, "-l", path.join(dir, "log"), "-w", "start"], asRoot);
      running.add(cluster);
    },
    stop(mode = "fast") {
      run(ctl, ["-D", data, "-m", mode, "-w", "stop"], asRoot);
      running.delete(cluster);
    },
    stopSync(mode) {
      try {
        cluster.stop(mode);
      } catch {
        // already down
      }
    },
    async query(sql, params = [], db = "postgres") {
      const c = new pg.Client({ connectionString: cluster.url(db) });
      await c.connect();
      try {
        return await c.query(sql, params);
      } finally {
        await c.end();
      }
    },
    /** A fresh, empty database; returns its name. */
    async createDatabase() {
      const name = `t${process.pid}_${++nth}`;
      await cluster.query(`CREATE DATABASE ${name}`);
      return name;
    },
    destroy() {
      cluster.stopSync("immediate");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
