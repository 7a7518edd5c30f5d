// What every subcommand does first: its arguments through the one argument parser (cli/args.js) with --json and
// --help, its help printed when asked, and the value checks flags share.

import { wholeNumber } from "../values.js";
import { UsageError, parseArgs } from "./args.js";

export const COMMON = { "--json": { key: "json", flag: true }, "--help": { key: "help", flag: true }, "-h": { key: "help", flag: true } };

/** A subcommand's arguments against `spec` (plus --json and --help), with its `help` printed instead when asked
 *  (then null), and no positional argument unless `positional`. Throws UsageError. */
export function commandArgs(help, argv, spec, io, { positional = false } = {}) {
  const p = parseArgs(argv, { ...COMMON, ...spec }, "command");
  const opts = { ...p.values, positional: p.positional };
  if (opts.help) {
    io.stdout.write(help);
    return null;
  }
  if (!positional && opts.positional.length) throw new UsageError(`unexpected argument "${opts.positional[0]}"`);
  return opts;
}

/** A whole number option (undefined when absent). */
export function count(value, name) {
  if (value === undefined) return undefined;
  const n = wholeNumber(value);
  if (n === undefined) throw new UsageError(`${name} needs a whole number, not "${value}"`);
  return n;
}
