#!/usr/bin/env bash
# Builds the pinned peers that `make bench`'s `peers` step measures tenfour against (issue 21), once, into
# bin/bench/ — skipped when the binary for that version is there already:
#
#   bin/bench/livekit-server-v1.13.11     LiveKit (SFU), the audio-forwarding peer
#   bin/bench/centrifugo-v6.9.1           Centrifugo, the WebSocket fan-out peer
#
# Both come from the Go module proxy (their published module source, nothing else). Centrifugo builds as it is.
# LiveKit's go.mod replaces pion webrtc, dtls and ice with LiveKit's own forks, which the proxy refuses; so the
# script copies the module source out of the module cache into bin/bench/src/ (never committed), drops those
# three `replace` lines so it builds on standard pion, and turns off the one call only the forks have
# (`EnableSped`, used only by LiveKit's "warp" connection feature, which the bench never asks for).
# docs/performance.md ("Peers") says the same.
#
#   scripts/build-peers.sh            # both
#   scripts/build-peers.sh livekit    # one
set -euo pipefail
cd "$(dirname "$0")/.."

LIVEKIT_MODULE=github.com/livekit/livekit-server
LIVEKIT_VERSION=v1.13.11
CENTRIFUGO_MODULE=github.com/centrifugal/centrifugo/v6
CENTRIFUGO_VERSION=v6.9.1

OUT="$PWD/bin/bench"
mkdir -p "$OUT/src"

# module_dir NAME MODULE@VERSION: downloads the module (outside any go.mod, so ours is untouched) and prints its
# directory in the module cache; fails, naming the peer NAME, when that holds no module source.
module_dir() {
  local tmp dir
  tmp=$(mktemp -d)
  dir=$( (cd "$tmp" && GOFLAGS= GO111MODULE=on GOWORK=off go mod download -json "$2") |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
  rmdir "$tmp"
  [ -n "$dir" ] && [ -f "$dir/go.mod" ] || { echo "build-peers: no module source for $1" >&2; return 1; }
  echo "$dir"
}

build_livekit() {
  local bin="$OUT/livekit-server-$LIVEKIT_VERSION"
  if [ -x "$bin" ]; then echo "build-peers: $bin is there"; return; fi
  echo "build-peers: building LiveKit $LIVEKIT_VERSION (several minutes on 2 cores)" >&2
  local dir src
  dir=$(module_dir LiveKit "$LIVEKIT_MODULE@$LIVEKIT_VERSION")
  src="$OUT/src/livekit-server-$LIVEKIT_VERSION"
  rm -rf "$src"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
  # The three forks the proxy refuses: build on standard pion instead.
  sed -i -E '/^replace github\.com\/pion\/(webrtc\/v4|dtls\/v3|ice\/v4) => /d' "$src/go.mod"
  if grep -qE '^replace github\.com/pion/' "$src/go.mod"; then
    echo "build-peers: LiveKit's go.mod still replaces a pion module" >&2; exit 1
  fi
  # The one call only the forks have.
  local n
  n=$(grep -c 'se\.EnableSped(true)' "$src/pkg/rtc/transport.go" || true)
  [ "$n" = 1 ] || { echo "build-peers: expected one EnableSped call in pkg/rtc/transport.go, found $n" >&2; exit 1; }
  sed -i 's#se\.EnableSped(true)#// se.EnableSped(true): only in LiveKit'"'"'s pion fork (bench build on standard pion)#' \
    "$src/pkg/rtc/transport.go"
  (cd "$src" && CGO_ENABLED=0 GOFLAGS="-mod=mod -buildvcs=false" GOWORK=off go build -trimpath -o "$bin.tmp" ./cmd/server)
  mv "$bin.tmp" "$bin"
  rm -rf "$src"
  echo "build-peers: $bin"
}

build_centrifugo() {
  local bin="$OUT/centrifugo-$CENTRIFUGO_VERSION"
  if [ -x "$bin" ]; then echo "build-peers: $bin is there"; return; fi
  echo "build-peers: building Centrifugo $CENTRIFUGO_VERSION" >&2
  local dir
  dir=$(module_dir Centrifugo "$CENTRIFUGO_MODULE@$CENTRIFUGO_VERSION")
  # Built from its own module directory so its go.mod (and go.sum) pin every dependency, as its release does.
  (cd "$dir" && CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" GOWORK=off go build -trimpath \
    -ldflags "-X github.com/centrifugal/centrifugo/v6/internal/build.Version=${CENTRIFUGO_VERSION#v}" -o "$bin.tmp" .)
  mv "$bin.tmp" "$bin"
  echo "build-peers: $bin"
}

case "${1:-all}" in
  livekit) build_livekit ;;
  centrifugo) build_centrifugo ;;
  all) build_centrifugo; build_livekit ;;
  *) echo "usage: $0 [livekit|centrifugo|all]" >&2; exit 2 ;;
esac
