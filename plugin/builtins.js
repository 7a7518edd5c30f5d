// The Node built-ins the plugin uses, loaded with require() rather than `import`.
// Node 20 answers an ESM `import` of a built-in with a facade that reads every export once; for node:fs that
// includes the lazy `fs.ReadStream` getter, which loads the whole streams stack into every CLI and hook process
// for streams the recorder never uses. require() hands the module over as it is. Bun and
// opencode (which runs on Bun) support createRequire the same way.

// In the `record` command's bundle (CommonJS, run by plugin/record.cjs) the module system's own require is passed
// in as __recordRequire; elsewhere one is made. node:module is not imported: loading it costs a hook process most
// of a millisecond, which the bundle need not pay (process.getBuiltinModule: Node 20.16 and 22.3 on, Bun).
const require =
  typeof __recordRequire === "function" ? __recordRequire : process.getBuiltinModule("node:module").createRequire(import.meta.url);

export const fs = require("node:fs");
export const path = require("node:path");

/** require() of a built-in module ("node:sqlite", "bun:sqlite"), for one that is loaded only on some paths. */
export const builtin = (name) => require(name);

/** A built-in loaded when one of its members is first read. */
function onFirstUse(name) {
  let loaded = null;
  return new Proxy({}, { get: (_, member) => (loaded ??= require(name))[member] });
}

/** node:os, loaded when first used: unlike node:fs and node:path it is not in Node's startup snapshot, and
 *  recording with HOME set never needs it (home, temp dir, host name, user). */
export const os = onFirstUse("node:os");

/** The home directory by node:os, for settings.js placesOf: reading `os.homedir` itself would load node:os even
 *  when HOME says where home is. */
export const homedir = () => os.homedir();

/** node:crypto, loaded when first used (cursor fingerprints, machine ids); an ESM import of it would also read
 *  its lazy WebCrypto getter. */
export const nodeCrypto = onFirstUse("node:crypto");

/** Closes `fd` and ignores a failure: for descriptors whose data is already written or that were only read. */
export function closeQuietly(fs, fd) {
  try {
    fs.closeSync(fd);
  } catch {
    // nothing left to lose
  }
}

/** tty.isatty, loading node:tty only when called: it brings the streams stack with it (tty.ReadStream). */
export function isatty(fd) {
  return require("node:tty").isatty(fd);
}

let mainScript; // the real path of the script this process was started with (undefined: not yet asked)

/** Whether the module whose import.meta is `meta` is the script this process was started with
 *  (`node plugin/cli/hook-mode.js ...`), through symlinks. Never in the `record` command's bundles: their
 *  launcher is (and there meta.url, computed when read, is not read). */
export function isMainModule(meta) {
  if (typeof __recordImport === "function") return false;
  try {
    mainScript ??= process.argv[1] ? fs.realpathSync(process.argv[1]) : null;
    return mainScript !== null && mainScript === require("node:url").fileURLToPath(meta.url);
  } catch {
    return false;
  }
}

/** import() of a module of plugin/ ("./cli/read.js"). The `record` command runs its code as one CommonJS
 *  bundle through vm.Script (plugin/record.cjs, for V8's code cache), where a bare import() has no loader to
 *  call; there the launcher passes its own as `__recordImport` (a parameter of the bundle's wrapper). */
export function importSibling(spec) {
  return typeof __recordImport === "function" ? __recordImport(spec) : import(spec);
}
