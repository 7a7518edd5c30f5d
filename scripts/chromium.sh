#!/usr/bin/env bash
# Installs Debian's chromium package when /usr/bin/chromium is missing, for the browser suite (tests/browser/)
# and bench/view.js, which drive it headless through playwright-core; no browser build is ever downloaded.
# Prints the binary's path.
set -euo pipefail
bin=/usr/bin/chromium
if ! [ -x "$bin" ]; then
  echo "chromium: installing Debian's chromium package (one-time)" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
fi
echo "$bin"
