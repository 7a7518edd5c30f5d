// The hook entries Claude Code and Codex read (the same shape in .claude/settings.json and Codex's hooks.json):
// {"hooks": {"<Event>": [{"matcher": "*", "hooks": [{"type": "command", "command": "..."}]}]}}.

import { setAt, valueAt } from "./jsonc.js";
import { InitError } from "./errors.js";

/** Whether `command` already runs our hook mode for `host`, however it names the command (`record`, or a path
 *  to plugin/record.cjs or cli.js, through node or not). */
export function runsOurHook(command, host) {
  return typeof command === "string" && new RegExp(`(^|[\\s/])(record|record\\.cjs|cli\\.js)\\s+hook\\s+${host}(\\s|$)`).test(command);
}

/** `text` (the config file, as a jsonc tree `root`) with one `command` hook under each event of `events` (event
 *  name → the tool matcher its hook gets) that does not run ours yet. Returns { text, added: [event names],
 *  present: [event names] }. */
export function addHooks(text, root, file, events, host, command) {
  const hooks = valueAt(root, ["hooks"]);
  if (hooks !== undefined && (hooks === null || typeof hooks !== "object" || Array.isArray(hooks))) {
    throw new InitError(`${file}: "hooks" is not an object of events`);
  }
  const added = [];
  const present = [];
  for (const [event, matcher] of Object.entries(events)) {
    const groups = hooks?.[event];
    if (groups !== undefined && !Array.isArray(groups)) throw new InitError(`${file}: "hooks.${event}" is not a list`);
    const ours = (groups ?? []).some((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => runsOurHook(h?.command, host)));
    if (ours) {
      present.push(event);
      continue;
    }
    const entry = { matcher, hooks: [{ type: "command", command }] };
    text = groups === undefined ? setAt(text, ["hooks", event], [entry]) : setAt(text, ["hooks", event, -1], entry);
    added.push(event);
  }
  return { text, added, present };
}
