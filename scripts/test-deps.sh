#!/usr/bin/env bash
# Installs and starts what the tests need on a fresh Debian machine: Chromium (make bench's console rows) and its
# headless shell (the browser suite),
# PostgreSQL (store contract suite), ffmpeg (cameras, the broadcast library), GStreamer's RTSP server (cameras), SIPp
# and baresip (SIP clients), kamailio (a SIP PBX and proxy). Idempotent; prints the PostgreSQL URL for tests on its last line.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# The browser suite's browser: Chromium's headless shell (the same engine without the desktop browser's shell)
# takes a fifth less CPU for the same cases on CI's 2 cores (docs/testing.md, "Where the browser suite's time goes").
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v pg_ctlcluster >/dev/null 2>&1 || need+=(postgresql)
# cameras (internal/camera, docs/adr/0016): ffmpeg pulls, records and snapshots, and transcodes the broadcast
# library (ADR 0018); GStreamer's RTSP server (through
# Debian's python3-gi) serves the demo's and the tests' simulated cameras
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
# the cluster (internal/cluster, docs/adr/0024): `make cluster` runs Debian's NATS server (the Go tests embed their own)
command -v nats-server >/dev/null 2>&1 || need+=(nats-server)
# the SIP side (internal/sip, docs/sip.md): SIPp registers and calls as a real SIP client, baresip is a real phone
command -v sipp >/dev/null 2>&1 || need+=(sip-tester)
command -v baresip >/dev/null 2>&1 || need+=(baresip)
# kamailio: the PBX a SIP trunk registers to and a proxy between a phone and tenfour (internal/sip's trunk tests)
command -v kamailio >/dev/null 2>&1 || [ -x /usr/sbin/kamailio ] || need+=(kamailio)
/usr/bin/python3 -c 'import gi; gi.require_version("GstRtspServer", "1.0"); gi.require_version("Gst", "1.0"); from gi.repository import Gst; Gst.init(None); assert Gst.ElementFactory.find("x264enc") and Gst.ElementFactory.find("rtph264pay")' >/dev/null 2>&1 ||
  need+=(python3 python3-gi gir1.2-gst-rtsp-server-1.0 gstreamer1.0-rtsp gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-ugly)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
fi

# Start the first PostgreSQL cluster Debian created (or create one).
ver=$(ls /usr/lib/postgresql | sort -V | tail -n1)
if ! pg_lsclusters -h | grep -q .; then
  pg_createcluster "$ver" main >&2
fi
read -r cver cname _ < <(pg_lsclusters -h | head -n1)
if ! pg_lsclusters -h | head -n1 | grep -q online; then
  pg_ctlcluster "$cver" "$cname" start >&2
fi
port=$(pg_lsclusters -h | head -n1 | awk '{print $3}')
for _ in $(seq 1 50); do
  su postgres -c "psql -p $port -Atqc 'select 1'" >/dev/null 2>&1 && break
  sleep 0.2
done
su postgres -c "psql -p $port -Atqc \"SELECT 1 FROM pg_roles WHERE rolname='tenfour'\"" | grep -q 1 ||
  su postgres -c "psql -p $port -qc \"CREATE ROLE tenfour LOGIN SUPERUSER PASSWORD 'tenfour'\"" >&2
su postgres -c "psql -p $port -Atqc \"SELECT 1 FROM pg_database WHERE datname='tenfour_test'\"" | grep -q 1 ||
  su postgres -c "createdb -p $port -O tenfour tenfour_test" >&2
echo "postgres://tenfour:tenfour@127.0.0.1:$port/tenfour_test?sslmode=disable"
