// What a hook process and the warm hook helper (plugin/cli/hook-client.js, plugin/cli/hook-helper.js) say to
// each other over the helper's Unix socket, and the time limits that keep an event from being lost or handled
// twice. One connection carries one event:
//
//   hook process → helper   a JSON line { v, args, env, cwd, sent, bytes }, then `bytes` bytes: the event as read
//   helper → hook process   "A" when the helper takes the event, then one JSON line { out, err } when it is done;
//                           or the connection closed with nothing, when it will not take it
//
// A hook process that hears no "A" within ACK_MS does the work itself. The helper takes an event only while
// TAKE_MS have not passed since `sent`, well inside ACK_MS, so an event the hook process gave up on is never
// taken as well.

export const VERSION = 1;
/** How long after sending an event its hook process waits to hear that the helper took it. */
export const ACK_MS = 1000;
/** How long after the hook process sent an event the helper may still take it. */
export const TAKE_MS = 400;
/** How long a hook process waits for the answer to an event the helper took, before it gives up on the answer
 *  (the entry may have been written; the hint is lost). */
export const ANSWER_MS = 60_000;
/** The longest header a helper reads before it closes the connection. */
const MAX_HEADER_BYTES = 1024 * 1024;

/** The bytes of one request: the header line, then the event. */
export function requestBytes({ args, env, cwd, sent }, input) {
  const header = JSON.stringify({ v: VERSION, args, env, cwd, sent, bytes: input.length });
  return Buffer.concat([Buffer.from(header + "\n", "utf8"), input]);
}

/**
 * Reads one request from `socket` (a net.Socket). Resolves to { header, input } (header: the parsed line,
 * `input`: a Buffer of the event), or to null when the connection ends first or does not carry a request of
 * this version (a header that is not JSON, too long, or without its fields).
 */
export function readRequest(socket) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let header = null;
    let start = 0; // where the event begins in the joined chunks
    const finish = (value) => {
      socket.removeListener("data", onData);
      socket.removeListener("end", onEnd);
      socket.removeListener("error", onEnd);
      resolve(value);
    };
    const onEnd = () => finish(null);
    const onData = (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      if (header === null) {
        const all = Buffer.concat(chunks);
        const nl = all.indexOf(10);
        if (nl < 0) {
          if (size > MAX_HEADER_BYTES) finish(null);
          return;
        }
        header = parseHeader(all.subarray(0, nl));
        if (header === null) return finish(null);
        chunks.length = 0;
        chunks.push(all);
        start = nl + 1;
      }
      if (size - start >= header.bytes) {
        const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        finish({ header, input: Buffer.from(all.subarray(start, start + header.bytes)) });
      }
    };
    socket.on("data", onData);
    socket.once("end", onEnd);
    socket.once("error", onEnd);
  });
}

function parseHeader(bytes) {
  let h;
  try {
    h = JSON.parse(bytes.toString("utf8"));
  } catch {
    return null;
  }
  const ok =
    h &&
    h.v === VERSION &&
    Array.isArray(h.args) &&
    h.args.every((a) => typeof a === "string") &&
    h.env &&
    typeof h.env === "object" &&
    typeof h.cwd === "string" &&
    Number.isFinite(h.sent) &&
    Number.isSafeInteger(h.bytes) &&
    h.bytes >= 0;
  return ok ? h : null;
}

/** The answer line for what the event wrote to stdout and stderr. */
export function answerBytes(out, err) {
  return JSON.stringify({ out, err }) + "\n";
}

/** The answer in the bytes that followed "A": { out, err } strings, or null when they are not a whole answer
 *  (the helper died or was stopped while it worked). */
export function parseAnswer(bytes) {
  try {
    const a = JSON.parse(bytes.toString("utf8"));
    return a && typeof a.out === "string" && typeof a.err === "string" ? a : null;
  } catch {
    return null;
  }
}
