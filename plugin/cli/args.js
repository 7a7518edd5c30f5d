// The one argument parser of the `record` command and its subcommands. A spec maps each option to the key it
// sets: { "--file": { key: "file" }, "--json": { key: "json", flag: true }, "--kind": { key: "kind", multi: true } }.
// Values come as `--name VALUE` or `--name=VALUE`. Three grammars:
//   "command"  a subcommand's: options anywhere, other words positional, `--` ends the options; an unknown
//              option, a value given to a flag or a missing value is a UsageError;
//   "entry"    recording's: options first, and the first other word starts the entry text (so nothing typed is
//              lost): `--` makes the rest literal text, `-` reads standard input, an unknown option starts the
//              text; a missing value is a problem to report, never a reason to drop the entry;
//   "lenient"  a server started by a host (mcp, hook): anything it does not know is a problem to report and
//              ignore, so a host that passes an extra argument still gets a working server.

export class UsageError extends Error {}

/**
 * Parses `argv` against `spec` in `grammar` ("command", "entry" or "lenient"). Returns { values, positional,
 * problems, text, unknown }: `text` (entry grammar) is the entry's text, or null for standard input; `unknown`
 * is the unknown option that started it. Throws UsageError only in the command grammar.
 */
export function parseArgs(argv, spec, grammar = "command") {
  const out = { values: {}, positional: [], problems: [], text: null, unknown: null };
  const problem = (msg) => {
    if (grammar === "command") throw new UsageError(msg);
    out.problems.push(grammar === "lenient" ? `${msg} (ignored)` : msg);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      if (grammar === "entry") out.text = argv.slice(i + 1).join(" ");
      else out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      if (grammar === "entry") {
        // "-" is standard input; words after it are still text (nothing typed is dropped).
        const rest = a === "-" ? argv.slice(i + 1) : argv.slice(i);
        if (rest.length) out.text = rest.join(" ");
        break;
      }
      if (grammar === "lenient") problem(`unknown argument ${a}`);
      else out.positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const o = Object.hasOwn(spec, name) ? spec[name] : null;
    if (!o || (o.flag && name !== a && grammar === "entry")) {
      if (grammar === "entry") {
        out.unknown = a;
        out.text = argv.slice(i).join(" ");
        break;
      }
      problem(grammar === "lenient" ? `unknown argument ${a}` : `unknown option ${name}`);
      continue;
    }
    if (o.flag) {
      if (name !== a) problem(`${name} takes no value`);
      else out.values[o.key] = true;
      continue;
    }
    let value;
    if (name !== a) value = a.slice(eq + 1);
    else if (i + 1 < argv.length) value = argv[++i];
    else {
      problem(`${a} needs a value`);
      continue;
    }
    if (o.multi) (out.values[o.key] ??= []).push(value);
    else out.values[o.key] = value;
  }
  return out;
}
