#!/usr/bin/env bash
# `make test`'s runner: makes each phase in turn and prints how long each took — at the end, or after the phase
# that failed — so a CI run shows where its time budget goes. A phase already made is passed to the next makes as
# old (--assume-old), so `build`, a prerequisite of several phases, runs once.
set -uo pipefail
made=()
took=()
summary() {
  echo "--- phase times (s)"
  for i in "${!made[@]}"; do printf '%-10s %5d\n' "${made[$i]}" "${took[$i]}"; done
  printf '%-10s %5d\n' total "$SECONDS"
}
for p in "$@"; do
  old=()
  for m in "${made[@]}"; do old+=("--assume-old=$m"); done
  start=$SECONDS
  make --no-print-directory "${old[@]}" "$p"
  rc=$?
  made+=("$p")
  took+=("$((SECONDS - start))")
  if [ "$rc" -ne 0 ]; then
    summary
    exit "$rc"
  fi
done
summary
