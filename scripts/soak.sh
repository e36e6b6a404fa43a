#!/usr/bin/env bash
# `make soak`: 10,000 simulated terminals + 20 consoles held online for SOAK_MINUTES (default 30) with talk
# bursts, positions every 10 s, alarms and messages both ways; samples the server's RSS, goroutines and open
# files, fits their trend, counts every alarm and message delivered and the p99 latencies per window, prints the
# tables and writes them to bin/bench/soak.txt (docs/performance.md "Soak"). Not part of `make bench`.
#
#   make soak                              # the 30-minute soak (about 32 minutes with the logins)
#   SOAK_MINUTES=3 make soak               # a short check
#   SOAK_TERMINALS=2000 SOAK_MINUTES=5 make soak
#   SOAK_WINDOW=2m SOAK_SAMPLE=5s SOAK_TALK_EVERY=30m make soak
set -euo pipefail
cd "$(dirname "$0")/.."

args=(-soak -soak-duration "${SOAK_MINUTES:-30}m" -terminals "${SOAK_TERMINALS:-10000}"
  -soak-sample "${SOAK_SAMPLE:-10s}" -soak-talk-every "${SOAK_TALK_EVERY:-60m}")
if [ -n "${SOAK_WINDOW:-}" ]; then
  args+=(-soak-window "$SOAK_WINDOW")
fi
exec go run ./internal/bench/cmd "${args[@]}" "$@"
