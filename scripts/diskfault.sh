#!/usr/bin/env bash
# diskfault.sh — runs the real strata binary with the disk failing under it, by injecting
# errors into its system calls with strace, and checks that a storage fault is a failure:
#   1. writes fail with ENOSPC (a full disk): `ingest --wait` exits non-zero within a bound,
#      with DISK_FULL and a hint naming the free space and the data folder; the store passes
#      PRAGMA integrity_check; run again with space, every file ends analyzed.
#   2. fsync fails with EIO: `ingest --wait` exits non-zero with STORAGE_FAILED; store intact.
# The faults are injected into every call of the kind, on a store that already exists (a first
# ingest of half the files runs without faults): strace counts `when=N+` per thread, and Go
# moves goroutines between threads, so "from the 400th write on" hits a different write (or
# none) on each run; "every write of this run" fails the same way each time.
# Usage: scripts/diskfault.sh [STRATA_BINARY]   (default: builds ./strata-diskfault from here)
# Needs strace (scripts/deps.sh test) and sqlite3 or python3 for the integrity check.
set -euo pipefail

cd "$(dirname "$0")/.."
bin=${1:-}
work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
if [ -z "$bin" ]; then
	bin=$work/strata
	go build -o "$bin" .
fi
command -v strace >/dev/null || { echo "diskfault: strace is missing (scripts/deps.sh test)" >&2; exit 2; }

fail() { echo "diskfault: FAIL: $* (work: $work)" >&2; exit 1; }
sql() { # sql DB QUERY: one value
	if command -v sqlite3 >/dev/null; then sqlite3 "$1" "$2"; else python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2"; fi
}

# Documents: generated, so the run does not depend on what this machine has installed.
docs=$work/docs
mkdir -p "$docs"
for i in $(seq 1 120); do
	{
		echo "# Field notes $i"
		for j in $(seq 1 80); do echo "Observation $i.$j: heron $((i * 1000 + j)) waded past reed bed $((j * 7 + i)) at dawn."; done
	} >"$docs/notes-$i.md"
done

# prepare NAME: a data folder holding half the documents, ingested without faults.
prepare() {
	data=$work/$1
	env -u STRATA_HOME STRATA_EMBEDDER=static OLLAMA_HOST=http://127.0.0.1:1 \
		timeout 120 "$bin" --data "$data" ingest --wait "$docs"/notes-1*.md >/dev/null 2>&1 || fail "$1: the fault-free first ingest failed"
}

# run NAME BOUND_SECONDS STRACE_ARGS...: runs `ingest --wait` under strace; sets rc, out, err.
run() {
	local name=$1 bound=$2
	shift 2
	data=$work/$name
	out=$work/$name.out
	err=$work/$name.err
	local t0=$SECONDS
	set +e
	env -u STRATA_HOME STRATA_EMBEDDER=static OLLAMA_HOST=http://127.0.0.1:1 \
		timeout -k 5 "$bound" strace -f -o /dev/null "$@" "$bin" --json --data "$data" ingest --wait "$docs" >"$out" 2>"$err"
	rc=$?
	set -e
	cat "$err" >>"$out" # the envelope goes to stderr, with the log
	echo "diskfault: $name: exit $rc in $((SECONDS - t0)) s"
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "$name: still running after ${bound}s (the wait loops)"
}

intact() {
	local res
	res=$(sql "$1/strata.db" "PRAGMA integrity_check")
	[ "$res" = ok ] || fail "integrity_check on $1: $res"
}

# 1. A full disk: every pwrite64 fails with ENOSPC.
prepare full
run full 60 -e trace=pwrite64 -e inject=pwrite64:error=ENOSPC
[ "$rc" -ne 0 ] || fail "full: exit 0 on a full disk"
grep -q '"code": *"DISK_FULL"' "$out" || fail "full: no DISK_FULL envelope: $(grep -v ^time= "$out" | head -c 400)"
grep -q 'free on /' "$out" || fail "full: the hint does not give the free space: $(grep -v ^time= "$out" | head -c 400)"
grep -q -- "--data" "$out" && grep -qF "$data" "$out" || fail "full: the hint does not name the data folder and --data"
lines=$(grep -c 'level=ERROR' "$out" || true)
[ "$lines" -le 5 ] || fail "full: $lines error lines for one full disk (log spam)"
intact "$data"
# Space returns: the same folder, no fault; what was left queued finishes, every file analyzed.
env -u STRATA_HOME STRATA_EMBEDDER=static OLLAMA_HOST=http://127.0.0.1:1 \
	timeout 180 "$bin" --data "$data" ingest --wait "$docs" >/dev/null 2>"$work/resume.err" || fail "resume: exit $? after space returned"
left=$(sql "$data/strata.db" "SELECT count(*) FROM documents WHERE status <> 'analyzed'")
[ "$left" = 0 ] || fail "resume: $left document(s) not analyzed after space returned"
intact "$data"

# 1b. The disk fills while the store is open: only writes to the WAL fail (strace -P), so the
# store opens and the first commit is refused.
prepare walfull
run walfull 60 -P "$data/strata.db-wal" -e trace=pwrite64 -e inject=pwrite64:error=ENOSPC
[ "$rc" -ne 0 ] || fail "walfull: exit 0 on a full disk"
grep -q '"code": *"DISK_FULL"' "$out" || fail "walfull: no DISK_FULL envelope: $(grep -v ^time= "$out" | head -c 400)"
intact "$data"

# 2. A failing disk: every fsync fails with EIO.
prepare eio
run eio 60 -e trace=fsync,fdatasync -e inject=fsync:error=EIO
[ "$rc" -ne 0 ] || fail "eio: exit 0 while fsync failed"
grep -q '"code": *"STORAGE_FAILED"' "$out" || fail "eio: no STORAGE_FAILED envelope: $(grep -v ^time= "$out" | head -c 400)"
grep -q 'level=ERROR' "$out" || fail "eio: the I/O error was not logged as an error"
intact "$data"

echo "diskfault: ok"
