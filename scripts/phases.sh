#!/usr/bin/env bash
# `make test`'s runner: makes each phase in turn and prints how long each took — at the end, or after the phase
# that failed — so a CI run shows where its time budget goes. A phase already made is passed to the next makes as
# old (--assume-old), so `build`, a prerequisite of several phases, runs once.
#
# A phase written a+b makes a and b at once: a mostly waiting phase beside a busy one (the chaos lab's short run,
# 0.6 of a core, beside the console's unit tests). The first one's output streams; the others' is kept and printed
# after the first ends, each whole, so no two phases' lines interleave.
set -uo pipefail
made=()
took=()
summary() {
  echo "--- phase times (s)"
  for i in "${!made[@]}"; do printf '%-10s %5d\n' "${made[$i]}" "${took[$i]}"; done
  printf '%-10s %5d\n' total "$SECONDS"
}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
for group in "$@"; do
  IFS=+ read -ra phases <<<"$group"
  old=()
  for m in "${made[@]}"; do old+=("--assume-old=$m"); done
  start=$SECONDS
  pids=()
  for k in "${!phases[@]}"; do
    p=${phases[$k]}
    if [ "$k" -eq 0 ]; then
      (make --no-print-directory "${old[@]}" "$p"; echo $? >"$logs/$p.rc"; echo $((SECONDS - start)) >"$logs/$p.s") &
    else
      (make --no-print-directory "${old[@]}" "$p" >"$logs/$p.out" 2>&1; echo $? >"$logs/$p.rc"; echo $((SECONDS - start)) >"$logs/$p.s") &
    fi
    pids+=("$!")
  done
  rc=0
  for k in "${!phases[@]}"; do
    p=${phases[$k]}
    wait "${pids[$k]}"
    [ "$k" -gt 0 ] && cat "$logs/$p.out"
    made+=("$p")
    took+=("$(cat "$logs/$p.s")")
    [ "$(cat "$logs/$p.rc")" -ne 0 ] && rc=1
  done
  if [ "$rc" -ne 0 ]; then
    summary
    exit "$rc"
  fi
done
summary
