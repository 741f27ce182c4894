# Strata — the two commands a new machine needs are `make run` and `make test`.
# Needs Go (1.26+) on Debian/Ubuntu; system packages (GTK/WebKit, Node.js, Xvfb, Chromium) are
# installed by scripts/deps.sh when missing, Go modules and npm packages by their tools.

GO      ?= go
BIN     := bin/strata
DATA    ?=
DATAFLAG = $(if $(DATA),--data $(DATA),)

.PHONY: run build app bindings frontend test vet vet-tags cross package icons fmt-check fuzz bench clean check-go deps-test deps-app deps-package

check-go:
	@command -v $(GO) >/dev/null 2>&1 || { echo "Go is not installed: see https://go.dev/doc/install (Go 1.26 or newer)"; exit 1; }

## build: the headless binary (no cgo, no build tags): the CLI, MCP and the browser UI
build: check-go
	CGO_ENABLED=0 $(GO) build -o $(BIN) .

## deps-app: what the desktop build needs: GTK 3 / WebKitGTK 4.1 headers, pkg-config, a C
## compiler, Node.js and npm (the frontend). scripts/deps.sh installs only what is missing, and
## never asks apt for Node.js or npm when they already work (`scripts/deps.sh --dry-run app`).
deps-app:
	@scripts/deps.sh app

## bindings: regenerate the UI's TypeScript models and App bindings (frontend/wailsjs) from the
## Go types; needs only Go. TestBindingsAreFresh fails when they are stale.
bindings: check-go
	$(GO) test -count=1 -run '^TestBindingsAreFresh$$' . -args -update-bindings

## frontend: the UI (Svelte + Vite) → frontend/dist, which every binary embeds
frontend: deps-app
	@[ -d frontend/node_modules ] || npm ci --prefix frontend --no-audit --no-fund
	npm --prefix frontend run build

## app: the desktop binary: `bin/strata-desktop` with no command opens the window; with a
## command it is the same CLI as bin/strata
app: check-go frontend
	CGO_ENABLED=1 $(GO) build -tags desktop,production,webkit2_41 -o bin/strata-desktop .

## run: build and start Strata: the window when there is a display, else `serve` (open the
## address it prints in a browser). DATA=dir picks a data folder (default ~/.local/share/strata).
run: app
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then ./bin/strata-desktop $(DATAFLAG); \
	else echo "No display: serving the UI to a browser instead (Ctrl-C to stop)."; ./bin/strata-desktop $(DATAFLAG) serve; fi

## test: every test, plus formatting, vet (also of the tagged builds) and a short run of each
## fuzz target. The tagged and cross-compiled builds come last: each compiles the program
## again, and a failure there should not hide the tests' results. The timeout is per package:
## scripts/ builds the .deb twice and installs it (the first time, the desktop program's
## packages compile with -trimpath: minutes on two busy cores).
test: check-go deps-test fmt-check vet
	$(GO) test -count=1 -timeout 30m ./...
	npm --prefix frontend run check
	npm --prefix frontend test
	npm --prefix tests/e2e test
	$(MAKE) --no-print-directory fuzz FUZZTIME=20000x
	$(MAKE) --no-print-directory vet-tags
	$(MAKE) --no-print-directory cross

## deps-test: what tests need besides Go: the desktop build's packages, the packaging tools (the
## .deb test), Xvfb and xdotool (the window test), Chromium (browser tests), and the npm
## packages of the frontend and test suites
deps-test:
	@scripts/deps.sh test
	@[ -d tests/mcp-ts/node_modules/@modelcontextprotocol/sdk ] || npm ci --prefix tests/mcp-ts --no-audit --no-fund
	@[ -d frontend/node_modules ] || npm ci --prefix frontend --no-audit --no-fund
	@[ -d tests/e2e/node_modules ] || npm ci --prefix tests/e2e --no-audit --no-fund
	npm --prefix frontend run build

# make test gives each target a count of inputs, not a time: with a duration, Go 1.26's fuzz
# coordinator can fail a target with a bare "context deadline exceeded" and no failing input
# when the deadline meets a busy worker (golang/go#75804, fixed in Go 1.27). 20,000 inputs take
# 1–8 s per target here.
FUZZTIME ?= 30s
## fuzz: the readers, the chunker and the heuristics against generated input
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(FUZZTIME) ./backend/extract/
	$(GO) test -run '^$$' -fuzz '^FuzzChunk$$' -fuzztime $(FUZZTIME) ./backend/extract/
	$(GO) test -run '^$$' -fuzz '^FuzzFind$$' -fuzztime $(FUZZTIME) ./backend/heuristics/

vet:
	$(GO) vet ./...

## vet-tags: the code behind build tags, which `go vet ./...` never sees: the desktop window
## (cgo, GTK/WebKit) and the Wails bindings generator
vet-tags: check-go
	CGO_ENABLED=1 $(GO) vet -tags desktop,production,webkit2_41 .
	CGO_ENABLED=1 $(GO) build -tags desktop,production,webkit2_41 -o /dev/null .
	$(GO) vet -tags bindings .
	$(GO) build -tags bindings -o /dev/null .

## cross: the headless binary (no cgo, no tags) for Windows and macOS on amd64 and arm64, and
## go vet of every package with its tests for each OS, so a Unix-only call cannot creep in
## unnoticed. Vet runs once per OS: what differs between the two architectures is below Go's
## own syscall packages, and each run costs half a minute here.
CROSS := windows/amd64 windows/arm64 darwin/amd64 darwin/arm64
cross: check-go
	@set -e; for t in $(CROSS); do \
		echo "GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build ."; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -o /dev/null .; \
	done
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./...

## deps-package: what `make package` needs besides the desktop build's: dpkg-deb, dpkg-shlibdeps,
## desktop-file-validate and appstreamcli
deps-package:
	@scripts/deps.sh package

## package: the desktop app as a Debian package, bin/strata_VERSION_ARCH.deb (scripts/package-deb.sh):
## the desktop binary as /usr/bin/strata, its desktop entry, icons and AppStream metadata, with
## Depends from dpkg-shlibdeps. Reproducible: the same commit gives the same bytes.
## VERSION=x.y.z overrides the version (default: from `git describe`, see the script).
package: check-go deps-package
	scripts/package-deb.sh -o bin $(if $(VERSION),-v $(VERSION),)

## icons: regenerate build/linux/icons/ (committed) from build/appicon.png (TestIconsAreFresh
## fails while they are stale)
icons: check-go
	$(GO) run ./scripts/icons

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

## bench: performance figures on this machine (see BENCHMARKS.md)
bench: check-go
	@echo "machine: $$(nproc) cores, $$(free -h | awk '/Mem:/{print $$2}') memory, $$(uname -sr)"
	$(GO) test -run '^$$' -bench 'Ingest(Payload|Content)|Snapshot' -benchtime 3s ./backend/engine/
	$(GO) test -run '^$$' -bench 'FilesMarkdown' -benchtime 2000x ./backend/engine/
	$(GO) test -run '^$$' -bench 'IngestRatio' -benchtime 3x -count 3 ./backend/engine/
	$(GO) test -run '^$$' -bench 'WatchedFileLatency' -benchtime 7x -count 3 ./backend/engine/
	$(GO) test -run '^$$' -bench 'EnrichOverhead' -benchtime 1x -count 3 -timeout 30m ./backend/engine/
	$(GO) test -run '^$$' -bench 'EnrichNewDocument' -benchtime 20x -count 3 -timeout 30m ./backend/engine/
	$(GO) test -run '^$$' -bench 'Ask10k' -benchtime 300x -count 3 -timeout 30m ./backend/engine/
	$(GO) test -run '^$$' -bench 'Lint10k' -benchtime 2x -timeout 3h ./backend/engine/
	$(GO) test -run '^$$' -bench 'DocumentList' -benchtime 20x -timeout 30m ./backend/engine/
	$(GO) test -run '^$$' -bench . ./backend/extract/ ./backend/heuristics/ ./backend/embed/
	$(GO) test -run '^$$' -bench 'Hybrid' -benchtime 100x -timeout 30m ./backend/search/
	$(GO) test -run '^$$' -bench 'VectorRecall' -benchtime 1x -timeout 30m ./backend/search/
	$(GO) test -run '^$$' -bench 'MCP' -benchtime 1x ./cli/
	$(GO) test -run '^$$' -bench 'ReadersWhileLinking|EventStorm' -benchtime 1x -timeout 30m ./cli/

clean:
	rm -rf bin
