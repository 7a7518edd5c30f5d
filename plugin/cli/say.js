// Short messages to fd 1 or 2 written with write(2) directly: process.stdout and process.stderr are streams,
// and the first use of one loads the runtime's streams stack, which a one-entry process should not pay for.

import { fs, isatty } from "../builtins.js";

let streamed = false; // some output went through a stream (it may still be queued: see runCli)

/** Whether some output went through a stream, where it may still be queued (then the process must not exit
 *  at once). */
export function usedStream() {
  return streamed;
}

/** Writes `text` to fd 1 or 2. Falls back to the stream when the direct write fails (EAGAIN: a non-blocking
 *  pipe that is full). */
export function say(fd, text) {
  let bytes = Buffer.from(text, "utf8");
  try {
    while (bytes.length > 0) bytes = bytes.subarray(fs.writeSync(fd, bytes));
    return;
  } catch {
    // the rest through the stream, which waits for the pipe
  }
  streamed = true;
  (fd === 1 ? process.stdout : process.stderr).write(bytes);
}

export function stdinIsTTY() {
  try {
    // Not process.stdin.isTTY: creating that stream loads the streams stack. Pipes, files and sockets are no
    // terminal; only a character device needs the question asked.
    return fs.fstatSync(0).isCharacterDevice() && isatty(0);
  } catch {
    return false;
  }
}

