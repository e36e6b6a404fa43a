# tenfour — `make run` starts the demo, `make test` runs every test. `make help` lists the rest.
SHELL := /bin/bash
GO ?= go
BIN := bin/tenfour
ADDR ?= 127.0.0.1:8080
DATA ?= ./data
export CGO_ENABLED := 0

.PHONY: help run cluster build web web-deps server opus wire test test-go test-web test-e2e test-deps vet lint-go lint-web fuzz bench soak chaos test-chaos clean

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

run: build ## build console + server and start the demo on embedded SQLite (http://127.0.0.1:8080, 10000001 / 123456)
	$(BIN) serve --demo --addr $(ADDR) --data $(DATA)

cluster: build ## PostgreSQL + NATS + three nodes on 127.0.0.1:8091/8092/8093 with the demo (fleet on node 3); Ctrl-C stops all
	BIN=$(BIN) scripts/cluster.sh

build: web server ## build the console and the server binary (bin/tenfour)

web-deps: web/node_modules/.installed
web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web: web-deps ## build the console into web/dist (embedded by the server)
	cd web && npm run build

server: opus ## build bin/tenfour (CGO_ENABLED=0; embeds whatever web/dist holds, and libopus)
	$(GO) build -trimpath -o $(BIN) ./cmd/tenfour

# libopus compiled to WebAssembly, run in process by wazero (internal/media/libopus, docs/adr/0041): the npm package
# pinned in third_party/libopus, its SIMD build copied where go:embed takes it. A build output, never committed.
OPUS_WASM := internal/media/libopus/wasm/libopus.wasm
opus: $(OPUS_WASM) ## libopus as WebAssembly (npm @evan/opus) for the server to embed
$(OPUS_WASM): third_party/libopus/package.json third_party/libopus/package-lock.json
	cd third_party/libopus && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts
	cp third_party/libopus/node_modules/@evan/opus/wasm/simd.wasm $@

# The console's and the phone app's TypeScript shapes of the server's JSON, from the Go structs (tygo.yaml; tygo is
# a tool of go.mod). internal/wire's test fails when the committed files are stale.
wire: ## write web/src/shared/wire from the Go wire structs (after changing a model.go)
	$(GO) tool tygo generate

# test-go's build configuration. vet and staticcheck use it too: the packages they compile (every package and
# test variant of the tree) are then the ones test-go links, found in the build cache, instead of a third build of
# the whole tree that no other phase reuses (docs/testing.md). -race instruments every package and turns checkptr
# on in each; modernc.org/... (SQLite translated from C, under every test's store) is compiled without either
# (-race=false; checkptr comes with -race) — instrumenting SQLite's own memory took about half of a store test's
# CPU and checks no code of ours — while our own packages and the rest keep both (docs/adr/0042).
# (CGO_ENABLED=1: -race needs cgo.) -trimpath keeps the checkout's path out of the build cache's keys: a clean clone
# elsewhere on the machine (CI's) finds what an earlier checkout compiled: vet in a second clone took 4 s (docs/testing.md).
TEST_GOFLAGS := -race -trimpath -gcflags=modernc.org/...=-race=false

vet: ## go vet (with test-go's build flags, so test-go finds its compiles cached)
	CGO_ENABLED=1 $(GO) vet $(TEST_GOFLAGS) ./...

# The Go linter, pinned; built from source into bin/ the first time (and again when the pin changes).
STATICCHECK_VERSION := v0.8.2
STATICCHECK := bin/staticcheck-$(STATICCHECK_VERSION)

lint-go: $(STATICCHECK) ## gofmt and staticcheck over the Go tree (checks: staticcheck.conf)
	@unformatted="$$(gofmt -l cmd internal)"; if [ -n "$$unformatted" ]; then echo "gofmt: not formatted:"; echo "$$unformatted"; exit 1; fi
	CGO_ENABLED=1 GOFLAGS="$(TEST_GOFLAGS)" $(STATICCHECK) ./...

$(STATICCHECK):
	GOBIN="$(CURDIR)/bin/.staticcheck" $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv bin/.staticcheck/staticcheck $@

# Each phase in turn, with a table of how long each took (scripts/phases.sh). The chaos lab's short run has the
# machine to itself: beside vitest (two workers on two cores) its niced nodes' heartbeats came late, survivors swept
# live nodes as dead, and the pair took as long as the two one after the other (docs/testing.md).
TEST_PHASES := test-deps build vet lint-go lint-web test-go test-web test-chaos test-e2e
test: ## install test dependencies (Chromium, PostgreSQL) and run every test
	@scripts/phases.sh $(TEST_PHASES)

test-deps: ## install and start Chromium, PostgreSQL, ffmpeg and GStreamer's RTSP server (Debian packages)
	@scripts/test-deps.sh > .pg-url

# The probe's replayed attacks (internal/security: sign-in floods, password-hash storms, GPS floods) take every core
# on purpose: they run alone, after the rest, so the timing-sensitive media tests never share the machine with them.
# Tests that kill the real server run bin/tenfour (TENFOUR_TEST_BIN), made once here, instead of linking one each.
# The longest packages go first (go test starts packages in the order given, two at a time): the cluster's, which
# mostly waits on its nodes, beside the simulator's fleets, then SIP's, so that none of them is left running alone at
# the end while a core idles (docs/testing.md).
TEST_GO_FIRST := tenfour/internal/cluster tenfour/internal/sim tenfour/internal/sip
test-go: server ## Go tests with -race, store suites on SQLite and PostgreSQL; the security replays run after the rest, then the media path's allocation checks without -race
	TENFOUR_TEST_PG="$$(tail -n1 .pg-url 2>/dev/null)" TENFOUR_TEST_BIN="$(CURDIR)/$(BIN)" \
		CGO_ENABLED=1 $(GO) test $(TEST_GOFLAGS) -count=1 $(TEST_GO_FIRST) \
		$$($(GO) list ./... | grep -vx -e tenfour/internal/security $(addprefix -e ,$(TEST_GO_FIRST)))
	TENFOUR_TEST_PG="$$(tail -n1 .pg-url 2>/dev/null)" CGO_ENABLED=1 $(GO) test $(TEST_GOFLAGS) -count=1 ./internal/security
	# The media path's allocation checks (-race makes every call's state escape: they run without it).
	CGO_ENABLED=0 $(GO) test -trimpath -count=1 -run 'NotAllocate' ./internal/media ./internal/media/libopus

lint-web: web/lint/node_modules/.installed ## console lint (ESLint: typescript-eslint, React hooks, feature boundaries)
	cd web && npm run lint
web/lint/node_modules/.installed: web/lint/package.json web/lint/package-lock.json
	cd web/lint && npm ci --no-audit --no-fund --loglevel=error
	touch $@

test-web: web-deps ## console unit tests (vitest)
	cd web && npm test

test-e2e: build ## browser suite: real binary + Debian Chromium
	scripts/e2e.sh

# Every parser a client reaches, FUZZTIME each (their seeds run in `make test` as ordinary tests): socket frames,
# a terminal's every request over a real socket, the lenient JSON types, HTTP parameters (Decode, under every
# httpx.Bind endpoint) and the shared validators and paging, time ranges, GPS reports, upload metadata (file
# name, kind, sniffed type, file references), media.uploaded, names, an Opus packet into libopus (the SIP bridge).
FUZZTIME ?= 15s
FUZZ = FuzzDecodeFrame:./internal/platform/realtime FuzzTerminalFrame:./internal/sim FuzzLenient:./internal/platform/flex \
	FuzzDecode:./internal/platform/httpx FuzzParams:./internal/platform/httpx FuzzParse:./internal/platform/timerange \
	FuzzGPSReport:./internal/geo FuzzUploadMeta:./internal/files FuzzUploaded:./internal/medialib \
	FuzzName:./internal/platform/text FuzzSniffAudio:./internal/media/ffchild FuzzInputArgs:./internal/media/ffchild \
	FuzzDecode:./internal/media/libopus

fuzz: ## fuzz every parser a client reaches, FUZZTIME (15s) each, about 3 minutes
	@set -e; for t in $(FUZZ); do echo "== $${t%%:*} ($${t#*:}, $(FUZZTIME))"; \
		CGO_ENABLED=1 $(GO) test -run='^$$' -fuzz="^$${t%%:*}$$" -fuzztime=$(FUZZTIME) "$${t#*:}"; done

bench: web-deps ## performance table of issue 9, one run under 10 minutes (docs/performance.md; profiles in bin/bench)
	scripts/bench.sh

soak: ## 10,000 terminals + 20 consoles for SOAK_MINUTES (default 30): flat memory, nothing lost (bin/bench/soak.txt)
	scripts/soak.sh

chaos: server ## the cluster under faults, as root (network namespaces; docs/reliability.md); CHAOS_SHORT=1 the ≤3-minute run, CHAOS_SEED=n
	nice -n 10 $(GO) run -trimpath ./internal/chaos/cmd -bin $(BIN) $(if $(CHAOS_SHORT),-short) $(if $(CHAOS_SEED),-seed $(CHAOS_SEED))
test-chaos: server ## the chaos lab's short run (seed 35): a broken rule fails; where the lab cannot run (not root, no namespaces) it says why and passes
	nice -n 10 $(GO) run -trimpath ./internal/chaos/cmd -bin $(BIN) -short -seed $(or $(CHAOS_SEED),35) -skip-unusable

clean: ## remove build outputs (not the data directory)
	rm -rf bin web/dist/assets web/dist/index.html .pg-url
