// Where the wasm core's module is (plugin/wasm/, built by scripts/build.sh) and how its bytes are read and
// compiled: synchronously by core.js on first use, or ahead of time off the main thread (compileCoreWasm) by a
// process that knows early that it will record, such as hook mode on a failing gate. This file sits beside the
// bundles, so the same relative URL finds the module from them and from the ES modules.

import { fs } from "./builtins.js";

/** The core's bytes (throws when the file cannot be read). The URL is made here, not at load: in a bundle,
 *  import.meta.url loads node:url, which a hook call that records nothing should not pay for. */
export function readCoreWasm() {
  return fs.readFileSync(new URL("./wasm/recordings_core_bg.wasm", import.meta.url));
}

let ahead = null; // the one compile of this process

/** A promise of the compiled core, or of null when it cannot be read or compiled (core.js then tries again and
 *  reports why). V8 validates the module on another thread meanwhile, so a process that goes on loading the rest
 *  of its code does not wait for that. Compiled once: a process that asks again (hook mode's warm helper, for
 *  each event) gets the same module, which core.js has instantiated already. */
export function compileCoreWasm() {
  return (ahead ??= compileNow());
}

function compileNow() {
  try {
    return WebAssembly.compile(readCoreWasm()).catch(() => null);
  } catch {
    return Promise.resolve(null);
  }
}
