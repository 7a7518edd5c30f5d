// The flags that set record() options (plugin/recorder.d.ts RecordOptions), one table for every command that
// takes them: recording (`record`), `record mcp` and `record hook`. Each flag names the option it sets and the
// kind of value it takes, checked by plugin/values.js isKind as the plugin's own options are; a value of another
// kind is named in a warning and ignored, never a reason to drop an entry.

import { isKind } from "../values.js";
import { parseArgs } from "./args.js";

/** flag → { key: the option it sets (a dotted key sets a member of an object option), kind, multi: repeatable,
 *  flag: takes no value and sets `value` }. */
export const ENTRY_FLAGS = {
  "--file": { key: "file", kind: "string" },
  "--session": { key: "session", kind: "string" },
  "--model": { key: "model", kind: "string" },
  "--agent": { key: "agent", kind: "string" },
  "--no-redact": { key: "redact", flag: true, value: false },
  "--redact-pattern": { key: "redact.patterns", kind: "string", multi: true },
  "--allow": { key: "redact.allow", kind: "string", multi: true },
  "--allow-pattern": { key: "redact.allowPatterns", kind: "string", multi: true },
};

/** The cli/args.js spec of the named flags (all of them by default). */
export function flagSpec(names = Object.keys(ENTRY_FLAGS)) {
  const spec = {};
  for (const n of names) {
    const f = ENTRY_FLAGS[n];
    spec[n] = f.flag ? { key: f.key, flag: true } : f.multi ? { key: f.key, multi: true } : { key: f.key };
  }
  return spec;
}

/** The record() options that parsed flag `values` (cli/args.js, keyed as flagSpec keys them) set; a value not
 *  of its flag's kind is named in `warnings` and left out. A switch that turns an object option off wins over
 *  that option's members (`--no-redact` with `--allow x`: redaction is off). */
export function entryOptions(values, warnings = []) {
  const options = {};
  const off = new Set();
  for (const [name, f] of Object.entries(ENTRY_FLAGS)) {
    const v = values[f.key];
    if (v === undefined) continue;
    if (f.flag) {
      options[f.key] = f.value;
      off.add(f.key);
      continue;
    }
    const good = [];
    for (const x of f.multi ? v : [v]) {
      if (isKind(f.kind, x)) good.push(x);
      else warnings.push(`${name} ${JSON.stringify(x)} is not a ${f.kind}: ignored`);
    }
    if (!good.length) continue;
    const [top, member] = f.key.split(".");
    if (member === undefined) options[top] = f.multi ? good : good[0];
    else if (!off.has(top)) (options[top] ??= {})[member] = f.multi ? good : good[0];
  }
  return options;
}

/** The named flags in `args` as a command a host starts reads them (cli/args.js "lenient": anything else is a
 *  warning, never fatal): { options, warnings }. */
export function hostFlags(args, names) {
  const p = parseArgs(args, flagSpec(names), "lenient");
  const warnings = [...p.problems];
  return { options: entryOptions(p.values, warnings), warnings };
}
