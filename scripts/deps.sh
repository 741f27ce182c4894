#!/usr/bin/env bash
# deps.sh — install the system packages Strata needs, and only those that are missing.
#
#   scripts/deps.sh [--dry-run] app      what the desktop build needs (make run, make app)
#   scripts/deps.sh [--dry-run] package  the desktop build's C side, plus the Debian packaging
#                                        tools (make package)
#   scripts/deps.sh [--dry-run] test     the app's and the package's, plus what the tests need
#                                        (make test)
#
# Each requirement is checked on its own (a command on PATH, a pkg-config module, an installed
# Debian package) and maps to one Debian package, so a machine that has most things gets asked
# for the rest only. `apt-get update` runs once, and only when something is missing. With
# --dry-run (or DRY_RUN=1) it prints what it would install and changes nothing.
#
# Node.js and npm are special: they often come from NodeSource, whose `nodejs` package bundles
# npm and Conflicts: npm, so asking apt for `nodejs npm` breaks such a machine (issue 11). We
# never ask apt for either when `node` and `npm` work, whatever installed them.
#
# The script uses only bash builtins besides the commands it probes, so its test can run it
# with a PATH of stubs (scripts/deps_test.go).
set -euo pipefail

usage() { echo "usage: $0 [--dry-run] app|package|test" >&2; exit 2; }

dry=${DRY_RUN:-0}
[ "$dry" = 0 ] || [ "$dry" = 1 ] || { echo "deps: DRY_RUN must be 0 or 1, not '$dry'" >&2; exit 2; }
target=
for arg in "$@"; do
	case $arg in
	--dry-run) dry=1 ;;
	app|package|test) [ -z "$target" ] || usage; target=$arg ;;
	*) usage ;;
	esac
done
[ -n "$target" ] || usage

have() { command -v "$1" >/dev/null 2>&1; }

# installed PKG: true when dpkg knows PKG as installed (not merely removed with its config left).
installed() {
	local st
	st=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) || return 1
	[ "$st" = "install ok installed" ]
}

# pcmod MODULE: true when pkg-config finds the module (its -dev package is installed).
pcmod() { have pkg-config && pkg-config --exists "$1" 2>/dev/null; }

# nodesource: true when the installed nodejs package is NodeSource's (its version says so).
nodesource() {
	local v
	installed nodejs || return 1
	v=$(dpkg-query -W -f='${Version}' nodejs 2>/dev/null) || return 1
	[[ $v == *nodesource* ]]
}

missing=()   # Debian packages to install, in check order
problems=()  # what apt must not or cannot fix, explained; makes the script fail

need() { # need PACKAGE WHAT
	local p
	for p in ${missing[@]+"${missing[@]}"}; do [ "$p" != "$1" ] || return 0; done
	missing+=("$1")
	echo "deps: missing $2 → $1"
}

check_node() {
	local node_ok=0 npm_ok=0
	node --version >/dev/null 2>&1 && node_ok=1
	npm --version >/dev/null 2>&1 && npm_ok=1
	if [ $node_ok = 1 ] && [ $npm_ok = 1 ]; then
		return 0 # whatever installed them (NodeSource, Debian, nvm, …): leave them alone
	fi
	if [ $node_ok = 0 ]; then
		if nodesource; then
			problems+=("node does not run, but NodeSource's nodejs package is installed: reinstall it (apt-get install --reinstall nodejs), which also brings npm")
			return 0
		fi
		need nodejs "Node.js (node)"
		[ $npm_ok = 1 ] || need npm "npm"
		return 0
	fi
	# node works, npm does not: where node came from decides whether apt may give npm.
	if nodesource; then
		problems+=("npm is missing, but Node.js comes from NodeSource, whose nodejs package bundles npm and conflicts with Debian's npm: reinstall it (apt-get install --reinstall nodejs) instead of installing npm")
	elif installed nodejs; then
		need npm "npm (Node.js is Debian's, so Debian's npm fits)"
	else
		problems+=("npm is missing, and node ($(command -v node)) was not installed by apt: install npm the way node was installed (nvm, a tarball, …); apt's npm would bring a second Node.js")
	fi
}

# check_cgo: the C side of the desktop build (the window links GTK 3 and WebKitGTK 4.1).
check_cgo() {
	have gcc || need gcc "a C compiler (gcc, for cgo)"
	installed libc6-dev || need libc6-dev "the C library headers"
	have pkg-config || need pkg-config "pkg-config"
	pcmod gtk+-3.0 || need libgtk-3-dev "GTK 3 headers (pkg-config gtk+-3.0)"
	pcmod webkit2gtk-4.1 || need libwebkit2gtk-4.1-dev "WebKitGTK 4.1 headers (pkg-config webkit2gtk-4.1)"
}

check_app() {
	check_cgo
	check_node
}

# check_package: scripts/package-deb.sh builds from the committed frontend/dist, so it needs no
# Node.js; it builds, describes and checks the .deb with these.
check_package() {
	check_cgo
	have dpkg-deb || need dpkg "dpkg-deb"
	have dpkg-shlibdeps || need dpkg-dev "dpkg-shlibdeps (the package's Depends)"
	have desktop-file-validate || need desktop-file-utils "desktop-file-validate (checks the desktop entry)"
	have appstreamcli || need appstream "appstreamcli (checks the AppStream metadata)"
}

check_test() {
	check_app
	check_package
	have Xvfb || need xvfb "a virtual display (Xvfb)"
	have xauth || need xauth "xauth"
	have xdotool || need xdotool "xdotool"
	have import || need imagemagick "ImageMagick's import (screenshots)"
	have chromium || need chromium "Chromium (browser tests)"
	have dbus-run-session || need dbus "dbus-run-session"
	have strace || need strace "strace (storage fault injection: scripts/diskfault.sh)"
	[ -n "$(fc-list 2>/dev/null)" ] || need fonts-dejavu-core "a font"
}

check() {
	missing=()
	problems=()
	"check_$target"
}

fail_problems() {
	local p
	for p in "${problems[@]}"; do echo "deps: cannot fix: $p" >&2; done
	exit 1
}

check
if [ ${#missing[@]} = 0 ]; then
	[ ${#problems[@]} = 0 ] || fail_problems
	echo "deps ($target): nothing is missing"
	exit 0
fi

sudo=()
if [ "$EUID" != 0 ]; then
	sudo=(sudo)
fi
if [ "$dry" = 1 ]; then
	echo "would install: ${missing[*]}"
	echo "would run: ${sudo[*]+${sudo[*]} }apt-get update, then ${sudo[*]+${sudo[*]} }apt-get install -y --no-install-recommends PACKAGE for each"
	[ ${#problems[@]} = 0 ] || fail_problems
	exit 0
fi

if ! have apt-get; then
	echo "deps: no apt-get on this machine: install these (Debian names) with your package manager: ${missing[*]}" >&2
	exit 1
fi
if [ ${#sudo[@]} != 0 ] && ! have sudo; then
	echo "deps: not root and no sudo: as root, run apt-get install ${missing[*]}" >&2
	exit 1
fi

# Another apt run (unattended upgrades, a colleague's install) holds dpkg's lock: wait for it
# rather than fail at once.
lock=(-o DPkg::Lock::Timeout=300)
echo "deps: installing ${missing[*]}"
"${sudo[@]+"${sudo[@]}"}" apt-get "${lock[@]}" update -qq
for p in "${missing[@]}"; do
	# One package per call, so a failure names the package that could not be installed.
	if ! "${sudo[@]+"${sudo[@]}"}" env DEBIAN_FRONTEND=noninteractive apt-get "${lock[@]}" install -y -qq --no-install-recommends "$p"; then
		echo "deps: apt-get could not install $p" >&2
		exit 1
	fi
done

# Check again: a package can install and still not provide what was missing (a renamed command).
check
if [ ${#missing[@]} != 0 ]; then
	echo "deps: still missing after installing: ${missing[*]}" >&2
	exit 1
fi
[ ${#problems[@]} = 0 ] || fail_problems
echo "deps ($target): all present"
