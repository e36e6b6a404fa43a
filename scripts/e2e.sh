#!/usr/bin/env bash
# Runs the browser suite against the real binary: a fresh demo server on a temporary data directory whose fleet is
# quiet (--demo-fleet-quiet: its terminals log in and report where they are, then do nothing of their own; each case
# drives the terminals it needs, tests/e2e/terminal.mjs), Debian's Chromium driven by playwright-core
# (tests/e2e/run.mjs), then stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$(mktemp -d)
port=${E2E_PORT:-18080}
bin=${E2E_BIN:-bin/tenfour} # another build of the server (parallel work on one machine)
log="$data/server.log"
# Every console, phone app and driven terminal of the suite signs in from 127.0.0.1 — a control room behind one
# address, and most of them as dispatcher 10000001, a few hundred sign-ins in 15 minutes — so the per-address and
# per-account bursts are raised (CI run 6: a console sign-in refused "busy", code 101, after quick cases before it
# drained the budget). The throttle itself is proven by internal/security and internal/auth; the lockout case
# signs in from an address of its own (forwarder()).
# --tiles names a street map archive that is not there yet: tests/e2e/offmap.mjs drops the demo archive in (and
# takes it away), the server reading the file on each request (docs/adr/0036).
tiles="$data/tiles/streets.pmtiles"
mkdir -p "$data/tiles"
"$bin" tiles demo "$data/tiles/demo.pmtiles"
"$bin" serve --demo --demo-fleet-quiet --addr "127.0.0.1:$port" --data "$data" --media-udp-port 0 --log-level warn \
  --signin-burst-per-address 100000 --signin-burst-per-account 100000 --tiles "$tiles" >"$log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 1 150); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "server exited"; exit 1; }
  sleep 0.2
done
if [ ! -f tests/e2e/run.mjs ]; then
  echo "0 passed, 0 failed (no browser suite yet)"
  exit 0
fi
( cd tests/e2e && { [ -f package.json ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; } && npm ci --no-audit --no-fund --loglevel=error || true; } )
TENFOUR_URL="http://127.0.0.1:$port" E2E_TILES="$tiles" E2E_TILES_DEMO="$data/tiles/demo.pmtiles" node tests/e2e/run.mjs || { echo "--- server log"; tail -n 50 "$log"; exit 1; }
