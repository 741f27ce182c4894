# Strata — the two commands a new machine needs are `make run` and `make test`.
# Needs Go (1.26+); everything else is fetched by the Go toolchain.

GO      ?= go
BIN     := bin/strata
DATA    ?=
DATAFLAG = $(if $(DATA),--data $(DATA),)

.PHONY: run build app test vet fmt-check fuzz bench clean check-go deps-test

# Debian/Ubuntu packages are installed with apt-get (through sudo unless already root).
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT     := $(SUDO) sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$$@"' apt

check-go:
	@command -v $(GO) >/dev/null 2>&1 || { echo "Go is not installed: see https://go.dev/doc/install (Go 1.26 or newer)"; exit 1; }

## build: the headless binary (no cgo, no build tags)
build: check-go
	CGO_ENABLED=0 $(GO) build -o $(BIN) .

## run: build and start Strata. Until the desktop window lands this shows the CLI's help and
## the store's status; DATA=dir picks a data folder (default ~/.local/share/strata).
run: build
	@./$(BIN) $(DATAFLAG) --help
	@echo
	@./$(BIN) $(DATAFLAG) status

## app: the desktop binary (needs libgtk-3-dev and libwebkit2gtk-4.1-dev)
app: check-go
	CGO_ENABLED=1 $(GO) build -tags desktop,production,webkit2_41 -o bin/strata-desktop .

## test: every test, plus formatting, vet and a short run of each fuzz target
test: check-go deps-test fmt-check vet
	$(GO) test -count=1 ./...
	$(MAKE) --no-print-directory fuzz FUZZTIME=8s

## deps-test: what tests need besides Go: Node.js and npm (the MCP TypeScript SDK test)
deps-test:
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || $(APT) nodejs npm
	@[ -d tests/mcp-ts/node_modules/@modelcontextprotocol/sdk ] || npm ci --prefix tests/mcp-ts --no-audit --no-fund

FUZZTIME ?= 30s
## fuzz: the readers, the chunker and the heuristics against generated input
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) ./backend/extract/
	$(GO) test -run '^$$' -fuzz '^FuzzChunk$$' -fuzztime $(FUZZTIME) ./backend/extract/
	$(GO) test -run '^$$' -fuzz '^FuzzFind$$' -fuzztime $(FUZZTIME) ./backend/heuristics/

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## bench: performance figures on this machine (see BENCHMARKS.md)
bench: check-go
	@echo "machine: $$(nproc) cores, $$(free -h | awk '/Mem:/{print $$2}') memory, $$(uname -sr)"
	$(GO) test -run '^$$' -bench 'Ingest|Snapshot' -benchtime 3s ./backend/engine/
	$(GO) test -run '^$$' -bench 'FilesMarkdown' -benchtime 2000x ./backend/engine/
	$(GO) test -run '^$$' -bench 'WatchedFileLatency' -benchtime 5x ./backend/engine/
	$(GO) test -run '^$$' -bench . ./backend/extract/ ./backend/heuristics/ ./backend/embed/
	$(GO) test -run '^$$' -bench 'Hybrid' -benchtime 100x -timeout 30m ./backend/search/
	$(GO) test -run '^$$' -bench 'MCP' -benchtime 1x ./cli/

clean:
	rm -rf bin
