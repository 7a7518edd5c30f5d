// This package's name and version, from its package.json (doctor reports them; the MCP server announces them).

import { fs as nodeFs } from "./builtins.js";

/** { name, version }; a package.json that cannot be read gives the name and a version saying why. */
export function packageInfo(fs = nodeFs) {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    return { name: String(pkg.name ?? "?"), version: String(pkg.version ?? "?") };
  } catch (e) {
    return { name: "opencode-recordings", version: `unknown (${e?.code ?? e?.message ?? e})` };
  }
}
