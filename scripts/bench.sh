#!/usr/bin/env bash
# `make bench`: every performance measurement of issue 9, one after the other, joined into one table
# (docs/performance.md explains each row). Installs what it needs like `make test` (Chromium, PostgreSQL),
# then runs internal/bench/cmd, which builds the binary and the test binaries into bin/bench/, runs each
# measurement with a bounded duration, prints the table and writes it into docs/performance.md ("Latest run").
# Profiles and every tool's output: bin/bench/prof/, bin/bench/bench.log.
#
#   scripts/bench.sh                      # the whole run (under 10 minutes on 2 cores)
#   scripts/bench.sh -only access,late    # some steps (-list names them); the doc is not touched
#   scripts/bench.sh -terminals 2000      # a smaller scale run
set -euo pipefail
cd "$(dirname "$0")/.."

# PostgreSQL for the ingest row, Chromium for the console rows (idempotent; the URL is the last line).
if [ -z "${TENFOUR_TEST_PG:-}" ]; then
  scripts/test-deps.sh > .pg-url
fi
command -v perf >/dev/null 2>&1 || echo "bench: perf is not installed: the scale run's server profile is skipped (apt-get install linux-perf)" >&2

exec go run ./internal/bench/cmd "$@"
