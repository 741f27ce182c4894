#!/bin/sh
# Rebuilds testdata/corpus from documentation shipped with Debian 12.
# Every source is redistributable; README.md gives the licence of each group.
# Man pages are rendered without hyphenation or justification so that words
# are never split across lines (a split word would be invisible to search).
set -eu
cd "$(dirname "$0")"
out=corpus
mkdir -p "$out"
lic=/usr/share/common-licenses
doc=/usr/share/doc

man_txt() { # section page file
	MANWIDTH=100 man --nh --nj -P cat "$1" "$2" 2>/dev/null | col -bx >"$out/$3"
}
gz_txt() { # source file
	zcat "$1" >"$out/$2"
}

# Licences.
cp "$lic/GPL-3" "$out/license-gpl-3.txt"
cp "$lic/GPL-2" "$out/license-gpl-2.txt"
cp "$lic/LGPL-2.1" "$out/license-lgpl-2.1.txt"
cp "$lic/Apache-2.0" "$out/license-apache-2.0.txt"
cp "$lic/BSD" "$out/license-bsd.txt"
cp "$lic/MPL-2.0" "$out/license-mpl-2.0.txt"
cp "$lic/Artistic" "$out/license-artistic.txt"
cp "$lic/CC0-1.0" "$out/license-cc0-1.0.txt"
cp "$lic/GFDL-1.3" "$out/license-gfdl-1.3.txt"
cp "$doc/jq/copyright" "$out/debian-copyright-jq.txt"
cp "$doc/curl/copyright" "$out/debian-copyright-curl.txt"

# Compression and archives.
man_txt 1 gzip man-gzip.txt
man_txt 1 bzip2 man-bzip2.txt
man_txt 1 xz man-xz.txt
man_txt 1 tar man-tar.txt
man_txt 1 zip man-zip.txt
man_txt 1 unzip man-unzip.txt
gz_txt "$doc/liblzma-dev/xz-file-format.txt.gz" xz-file-format.txt
cp "$doc/nodejs/api/zlib.md" "$out/nodejs-zlib.md"

# Networking.
man_txt 8 ip-route man-ip-route.txt
man_txt 8 ss man-ss.txt
man_txt 7 tcp man-tcp.txt
man_txt 7 udp man-udp.txt
man_txt 7 ipv6 man-ipv6.txt
man_txt 5 hosts man-hosts.txt
man_txt 5 resolv.conf man-resolv.conf.txt
man_txt 5 nsswitch.conf man-nsswitch.conf.txt
man_txt 1 curl man-curl.txt
man_txt 1 ssh man-ssh.txt
cp "$doc/nodejs/api/dns.md" "$out/nodejs-dns.md"
cp "$doc/nodejs/api/dgram.md" "$out/nodejs-dgram.md"
cp "$doc/nodejs/api/tls.md" "$out/nodejs-tls.md"

# Shells.
man_txt 1 bash man-bash.txt
man_txt 1 dash man-dash.txt
gz_txt "$doc/bash/POSIX.gz" bash-posix-mode.txt
gz_txt "$doc/bash/COMPAT.gz" bash-compat.txt

# Text tools.
man_txt 1 grep man-grep.txt
man_txt 1 sed man-sed.txt
man_txt 1 find man-find.txt
man_txt 1 sort man-sort.txt
man_txt 1 tr man-tr.txt
man_txt 1 cut man-cut.txt
man_txt 1 mawk man-mawk.txt
man_txt 1 jq man-jq.txt
man_txt 1 less man-less.txt

# Version control.
man_txt 1 git-bisect man-git-bisect.txt
man_txt 1 git-rebase man-git-rebase.txt
man_txt 1 git-stash man-git-stash.txt
man_txt 5 gitignore man-gitignore.txt

# Packaging.
man_txt 8 apt-get man-apt-get.txt
man_txt 5 sources.list man-sources.list.txt
man_txt 1 dpkg man-dpkg.txt
cp "$doc/dpkg/spec/triggers.txt" "$out/dpkg-triggers.txt"

# Security and accounts.
man_txt 1 ssh-keygen man-ssh-keygen.txt
man_txt 1 gpg man-gpg.txt
man_txt 5 shadow man-shadow.txt
man_txt 5 crypt man-crypt.txt
man_txt 1 chmod man-chmod.txt

# Processes and the system.
man_txt 1 systemctl man-systemctl.txt
man_txt 1 top man-top.txt
man_txt 1 ps man-ps.txt
man_txt 1 kill man-kill.txt
man_txt 7 signal man-signal.txt
man_txt 7 hier man-hier.txt
man_txt 7 environ man-environ.txt
man_txt 7 utf-8 man-utf-8.txt
man_txt 7 ascii man-ascii.txt
man_txt 7 locale man-locale.txt
man_txt 1 make man-make.txt

# Image formats and other documents.
gz_txt "$doc/libjpeg62-turbo-dev/usage.txt.gz" libjpeg-usage.txt
gz_txt "$doc/libwebp-dev/doc/webp-container-spec.txt.gz" webp-container-spec.txt
gz_txt "$doc/fontconfig/fontconfig-user.txt.gz" fontconfig-user.txt
# meintro.txt is shipped already formatted: strip the overstrike and rejoin
# the words nroff hyphenated across lines.
zcat "$doc/groff-base/meintro.txt.gz" | col -bx |
	perl -CSD -0pe 's/(\S+)\x{2010}\n(\s*)(\S+)/$1$3\n$2/g' >"$out/groff-meintro.txt"
cp "$doc/gcc-12-base/README.Bugs" "$out/gcc-reporting-bugs.txt"

# Issue 13: other shapes. A book as HTML chapters plus the same book on one page
# (mdBook's print.html holds every chapter, also those not copied here), an API
# reference in Markdown with two of its pages also as the HTML export Node.js
# ships, PDFs (one of them the PDF of fontconfig-user.txt above), and copies.
book=$(ls -d "$HOME"/.rustup/toolchains/stable-*/share/doc/rust/html/book | head -1)
mkdir -p "$out/rust-book" "$out/nodejs-api" "$out/nodejs-api-html" "$out/pdf" "$out/copies/backup"
for f in "$book"/ch0*.html "$book"/ch1[0-6]*.html "$book"/print.html; do
	cp "$f" "$out/rust-book/"
done
for m in fs path http https net events stream buffer child_process crypto url util os process timers worker_threads cluster readline assert errors; do
	cp "$doc/nodejs/api/$m.md" "$out/nodejs-api/$m.md"
done
cp "$doc/nodejs/api/path.html" "$doc/nodejs/api/os.html" "$out/nodejs-api-html/"
zcat "$doc/bzip2/manual.pdf.gz" >"$out/pdf/bzip2-manual.pdf"
zcat "$doc/fontconfig/fontconfig-user.pdf.gz" >"$out/pdf/fontconfig-user.pdf"
cp "$doc/shared-mime-info/shared-mime-info-spec.pdf" "$out/pdf/shared-mime-info-spec.pdf"
cp "$doc/libtasn1-doc/libtasn1.pdf" "$out/pdf/libtasn1.pdf"
# Byte-identical copies, as a backup folder or a downloaded twice file leaves them.
cp "$doc/nodejs/api/events.md" "$out/copies/events.md"
cp "$book/ch04-01-what-is-ownership.html" "$out/copies/backup/ch04-01-what-is-ownership.html"
