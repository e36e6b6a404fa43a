#!/usr/bin/env bash
# `make bench`: every performance measurement of issue 9, one after the other, joined into one table
# (docs/performance.md explains each row). Installs what it needs like `make test` (Chromium, PostgreSQL),
# then runs internal/bench/cmd, which builds the binary and the test binaries into bin/bench/, runs each
# measurement with a bounded duration, prints the table and writes it into docs/performance.md ("Latest run").
# Profiles and every tool's output: bin/bench/prof/, bin/bench/bench.log.
#
#   scripts/bench.sh                      # the whole run (about 14 minutes on 2 cores with the peers step)
#   scripts/bench.sh -only access,late    # some steps (-list names them); the doc is not touched
#   scripts/bench.sh -terminals 2000      # a smaller scale run
#   scripts/bench.sh -only peers          # tenfour beside LiveKit and Centrifugo alone (issue 21, ~5 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."

# PostgreSQL for the ingest row, Chromium for the console rows (idempotent; the URL is the last line).
if [ -z "${TENFOUR_TEST_PG:-}" ]; then
  scripts/test-deps.sh > .pg-url
fi
command -v perf >/dev/null 2>&1 || echo "bench: perf is not installed: the scale run's server profile is skipped (apt-get install linux-perf)" >&2

# The peers of issue 21 (LiveKit, Centrifugo from the Go module proxy), built once into bin/bench/ and then skipped;
# the first build takes several minutes (LiveKit). Not needed for -list or an -only run without `peers`.
case " $* " in
  *" -list "*) ;;
  *" -only "*peers*|*" -only="*peers*) scripts/build-peers.sh || echo "bench: the peers did not build: the peers step reports it" >&2 ;;
  *" -only "*|*" -only="*) ;;
  *) scripts/build-peers.sh || echo "bench: the peers did not build: the peers step reports it" >&2 ;;
esac

# libopus for the server the run builds (the SIP bridge's codec, docs/adr/0041): a build output of `make opus`.
make --no-print-directory opus >&2

exec go run ./internal/bench/cmd "$@"
