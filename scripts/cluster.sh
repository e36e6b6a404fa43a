#!/usr/bin/env bash
# `make cluster`: PostgreSQL, a NATS server with JetStream and three tenfour nodes on one machine
# (127.0.0.1:8091, :8092, :8093; docs/operations.md, docs/adr/0024). Node 3 seeds the demo and runs the demo
# fleet; consoles may use any node. Ctrl-C stops everything this script started.
set -euo pipefail

BIN=${BIN:-bin/tenfour}
DATA=${DATA:-./data-cluster}
NATS_PORT=${NATS_PORT:-4222}
[ -x "$BIN" ] || { echo "build the server first: make server (or make build)" >&2; exit 1; }
command -v nats-server >/dev/null 2>&1 || { echo "installing nats-server" >&2; apt-get install -y -qq nats-server >&2; }

# PostgreSQL: the first local cluster (as make test-deps starts it), a database of its own
if [ -z "${TENFOUR_CLUSTER_DB:-}" ]; then
  read -r cver cname port _ < <(pg_lsclusters -h | head -n1)
  pg_lsclusters -h | head -n1 | grep -q online || pg_ctlcluster "$cver" "$cname" start
  su postgres -c "psql -p $port -Atqc \"SELECT 1 FROM pg_roles WHERE rolname='tenfour'\"" | grep -q 1 ||
    su postgres -c "psql -p $port -qc \"CREATE ROLE tenfour LOGIN SUPERUSER PASSWORD 'tenfour'\""
  su postgres -c "psql -p $port -Atqc \"SELECT 1 FROM pg_database WHERE datname='tenfour_cluster'\"" | grep -q 1 ||
    su postgres -c "createdb -p $port -O tenfour tenfour_cluster"
  TENFOUR_CLUSTER_DB="postgres://tenfour:tenfour@127.0.0.1:$port/tenfour_cluster?sslmode=disable"
fi

mkdir -p "$DATA/nats" "$DATA/node1" "$DATA/node2" "$DATA/node3"
pids=()
stop() {
  trap - INT TERM EXIT
  echo "stopping the cluster" >&2
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  exit 0
}
trap stop INT TERM EXIT

nats-server -js -a 127.0.0.1 -p "$NATS_PORT" -sd "$DATA/nats" >"$DATA/nats.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do (exec 3<>/dev/tcp/127.0.0.1/"$NATS_PORT") 2>/dev/null && break; sleep 0.1; done

node() { # node N [flags…]
  local n=$1; shift
  "$BIN" serve --db "$TENFOUR_CLUSTER_DB" --nats "nats://127.0.0.1:$NATS_PORT" --node-id "node$n" \
    --addr "127.0.0.1:809$n" --public-url "http://127.0.0.1:809$n" --data "$DATA/node$n" --media-udp-port "1745$n" --demo-rtsp-port 0 "$@" \
    >"$DATA/node$n.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:809$n/healthz" >/dev/null 2>&1 && return 0
    kill -0 "${pids[-1]}" 2>/dev/null || { echo "node $n exited:" >&2; tail -n 20 "$DATA/node$n.log" >&2; exit 1; }
    sleep 0.2
  done
  echo "node $n did not become healthy (see $DATA/node$n.log)" >&2; exit 1
}
node 3 --demo --conns-per-ip 1024 # seeds the demo on an empty database, then runs the demo fleet
node 1
node 2

cat <<MSG
tenfour cluster running (Ctrl-C stops it):
  node 1  http://127.0.0.1:8091
  node 2  http://127.0.0.1:8092
  node 3  http://127.0.0.1:8093   (the demo fleet is connected here)
  NATS    nats://127.0.0.1:$NATS_PORT   PostgreSQL  $TENFOUR_CLUSTER_DB
  console sign-in: 10000001 / 123456; logs in $DATA/*.log
MSG
wait -n "${pids[@]}" || true
echo "a process of the cluster ended; see $DATA/*.log" >&2
