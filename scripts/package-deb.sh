#!/usr/bin/env bash
# package-deb.sh — the desktop app as a Debian package (make package).
#
#   scripts/package-deb.sh [-o OUTDIR] [-v VERSION] [-b BINARY]
#
# Builds the desktop binary (cgo, tags desktop,production,webkit2_41, the version stamped into
# engine.Version) from the committed frontend/dist, lays out the package tree, and writes
# OUTDIR/strata_VERSION_ARCH.deb (OUTDIR defaults to bin/) with dpkg-deb. No fpm, no network.
#
#   /usr/bin/strata                                   the one binary: no command opens the window,
#                                                     a command runs the CLI (strata mcp, …)
#   /usr/share/applications/ID.desktop                the launcher entry (desktop-file-validate)
#   /usr/share/icons/hicolor/NxN/apps/ID.png          build/linux/icons (make icons)
#   /usr/share/metainfo/ID.metainfo.xml               AppStream, with this version's <release>
#                                                     (appstreamcli validate)
#
# Depends comes from dpkg-shlibdeps, which maps every shared library the binary links (ELF
# NEEDED) to the package that ships it and the oldest version with the symbols used: on Debian
# 12 that is libgtk-3-0, libwebkit2gtk-4.1-0, libsoup-3.0-0, libjavascriptcoregtk-4.1-0,
# libglib2.0-0, libgdk-pixbuf-2.0-0 and libc6. Built elsewhere it names that release's packages
# (libgtk-3-0t64 on Debian 13 and Ubuntu 24.04), so build on the oldest release you target.
#
# Reproducible: the version and every timestamp come from the commit (SOURCE_DATE_EPOCH, the
# committer date, unless set), the build is -trimpath, files are owned by root with fixed
# modes, and dpkg-deb sorts the archive; the same commit gives the same bytes (the test builds
# twice and compares).
#
# -v VERSION  the package and program version; default: the tag vX.Y.Z at HEAD as X.Y.Z, else
#             wails.json's productVersion with "~dev.COMMITS.gSHA" ("~" sorts before the
#             release itself), "+dirty" when the tree has uncommitted changes.
# -b BINARY   package this binary instead of building one (it must be the desktop build).
set -euo pipefail

readonly ID=io.github.strata_app.Strata
readonly MODULE=github.com/strata-app/strata

cd "$(dirname "$0")/.."
out=bin
version=
binary=
while getopts "o:v:b:" opt; do
	case $opt in
	o) out=$OPTARG ;;
	v) version=$OPTARG ;;
	b) binary=$OPTARG ;;
	*) echo "usage: $0 [-o OUTDIR] [-v VERSION] [-b BINARY]" >&2; exit 2 ;;
	esac
done

die() { echo "package-deb: $*" >&2; exit 1; }
for c in go dpkg-deb dpkg-shlibdeps dpkg; do
	command -v "$c" >/dev/null || die "$c is missing: run scripts/deps.sh package"
done

# The commit's time stamps everything; outside a git checkout (a source tarball) the caller
# must say when.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null) || die "not a git checkout: set SOURCE_DATE_EPOCH and pass -v VERSION"
fi
export SOURCE_DATE_EPOCH

if [ -z "$version" ]; then
	if tag=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null); then
		version=${tag#v}
	else
		base=$(sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' wails.json)
		[ -n "$base" ] || die "wails.json has no productVersion"
		version="$base~dev.$(git rev-list --count HEAD).g$(git rev-parse --short=7 HEAD)"
	fi
	if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
		version="$version+dirty"
	fi
fi
[[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "version '$version' is not a Debian version (a digit first, then letters, digits and . + ~ -)"

arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# debian/strata is where dpkg-shlibdeps expects the package's files.
root=$work/debian/strata
umask 022
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/applications" "$root/usr/share/metainfo"

if [ -z "$binary" ]; then
	echo "package-deb: building the desktop binary, version $version"
	CGO_ENABLED=1 go build -trimpath -tags desktop,production,webkit2_41 \
		-ldflags "-s -w -X $MODULE/backend/engine.Version=$version" -o "$root/usr/bin/strata" .
else
	cp "$binary" "$root/usr/bin/strata"
fi
chmod 0755 "$root/usr/bin/strata"

install -m 0644 "build/linux/$ID.desktop" "$root/usr/share/applications/$ID.desktop"
(cd build/linux/icons && find hicolor -name "$ID.png") | while read -r icon; do
	install -D -m 0644 "build/linux/icons/$icon" "$root/usr/share/icons/$icon"
done
[ -e "$root/usr/share/icons/hicolor/48x48/apps/$ID.png" ] || die "build/linux/icons has no 48x48 icon: run make icons"

# The metainfo gets the release being packaged, dated by the commit.
date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
sed "s|^</component>|  <releases>\n    <release version=\"$version\" date=\"$date\"/>\n  </releases>\n</component>|" \
	"build/linux/$ID.metainfo.xml" >"$root/usr/share/metainfo/$ID.metainfo.xml"
chmod 0644 "$root/usr/share/metainfo/$ID.metainfo.xml"

if command -v desktop-file-validate >/dev/null; then
	desktop-file-validate "$root/usr/share/applications/$ID.desktop" || die "the desktop entry is not valid"
else
	echo "package-deb: desktop-file-validate is missing (desktop-file-utils): the desktop entry is not checked" >&2
fi
if command -v appstreamcli >/dev/null; then
	appstreamcli validate --no-net --no-color "$root/usr/share/metainfo/$ID.metainfo.xml" >"$work/appstream.log" 2>&1 ||
		{ cat "$work/appstream.log" >&2; die "the AppStream metadata is not valid"; }
else
	echo "package-deb: appstreamcli is missing (appstream): the AppStream metadata is not checked" >&2
fi

# Depends: the packages of the libraries the binary links, as dpkg-shlibdeps finds them.
printf 'Source: strata\n\nPackage: strata\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O -e debian/strata/usr/bin/strata 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p') ||
	{ cat "$work/shlibdeps.log" >&2; die "dpkg-shlibdeps failed"; }
[ -n "$depends" ] || { cat "$work/shlibdeps.log" >&2; die "dpkg-shlibdeps found no libraries: is this the desktop build?"; }
case $depends in
*libwebkit2gtk-4.1-0*) ;;
*) die "Depends lacks WebKitGTK 4.1 ($depends): is this the desktop build?" ;;
esac

# Installed-Size as dpkg-gencontrol counts it: each file's size rounded up to KiB, plus one
# KiB per directory.
files_kib=$(find "$root" -path "$root/DEBIAN" -prune -o -type f -printf '%s\n' | awk '{ s += int(($1 + 1023) / 1024) } END { print s }')
dirs=$(find "$root" -path "$root/DEBIAN" -prune -o -mindepth 1 -type d -print | wc -l)
installed_size=$((files_kib + dirs))

(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
cat >"$root/DEBIAN/control" <<EOF
Package: strata
Version: $version
Architecture: $arch
Maintainer: ${STRATA_MAINTAINER:-Strata contributors <maintainers@strata.invalid>}
Installed-Size: $installed_size
Depends: $depends
Section: utils
Priority: optional
Description: local store for your documents, searchable and served to AI tools
 Strata keeps your documents (PDF, Word, Markdown, HTML, text, CSV, JSON,
 source code) and the facts in them in one SQLite store on this computer. It
 watches folders, searches as you type, answers questions with citations to
 the lines they came from, and serves the same store to AI tools (Claude
 Desktop, Cursor, Codex) over MCP. Nothing leaves the machine.
 .
 "strata" with no command opens the window; "strata --help" lists the
 commands (ingest, search, ask, serve, mcp, ...).
EOF
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

# Fixed times and modes; dpkg-deb writes root:root and sorts the entries.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +
mkdir -p "$out"
deb=$out/strata_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "package-deb: $deb ($(stat -c %s "$deb") bytes, installs $installed_size KiB)"
echo "package-deb: sha256 $(sha256sum "$deb" | cut -d' ' -f1)"
echo "package-deb: Depends: $depends"
