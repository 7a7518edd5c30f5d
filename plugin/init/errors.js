// The one error `record init` reports as such: a config it cannot edit (malformed, or not shaped as the host
// documents). The message names the file and what is wrong; the file is left as it was.
export class InitError extends Error {
  name = "InitError";
}
