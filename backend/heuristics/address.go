package heuristics

import "strings"

// AddressKind is what an e-mail address found in a text is.
type AddressKind int

// The kinds of address. Only a personal address makes a person; a role address (support@,
// security@) is a real contact but nobody's name; the rest are not facts at all: an example
// in documentation, a mailing list, a no-reply or bounce address, or a systemd unit or file
// name that merely looks like an address (pg_dump@main.timer).
const (
	AddressNone     AddressKind = iota // not shown: example, list, no-reply, unit or file name
	AddressRole                        // a shared mailbox: an e-mail fact, not a person
	AddressPersonal                    // a person's address
)

var exampleDomains = map[string]bool{"example.com": true, "example.org": true, "example.net": true, "example.edu": true,
	"localhost": true, "localdomain": true, "domain.com": true, "domain.tld": true, "yourdomain.com": true, "mydomain.com": true,
	"host.com": true, "company.com": true, "foo.com": true, "bar.com": true, "foo.bar": true, "foo.org": true, "email.com": true,
	"test.com": true, "acme.com": true}

var reservedTLDs = map[string]bool{"example": true, "test": true, "invalid": true, "localhost": true, "local": true, "internal": true, "lan": true}

// unitOrFile are name suffixes that make "name@instance.suffix" a systemd unit or a file, not a
// domain.
var unitOrFile = map[string]bool{"service": true, "timer": true, "socket": true, "target": true, "mount": true, "automount": true,
	"path": true, "device": true, "slice": true, "scope": true, "swap": true, "js": true, "ts": true, "json": true, "html": true,
	"md": true, "txt": true, "conf": true, "cfg": true, "py": true, "go": true, "rs": true, "so": true, "log": true, "png": true,
	"jpg": true, "gif": true, "svg": true, "pdf": true, "yml": true, "yaml": true, "xml": true, "sh": true, "lock": true, "toml": true,
	"gz": true, "zip": true, "po": true, "mo": true, "pot": true, "header": true, "h": true, "c": true, "o": true, "a": true, "tar": true, "deb": true, "rpm": true, "mjs": true, "cjs": true, "css": true, "map": true, "node": true}

var placeholderLocals = map[string]bool{"user": true, "username": true, "you": true, "yourname": true, "your.name": true, "name": true,
	"someone": true, "somebody": true, "foo": true, "bar": true, "me": true, "email": true, "address": true, "john.doe": true, "jane.doe": true,
	"first.last": true, "firstname.lastname": true, "test": true, "x": true, "xyz": true, "abc": true}

var roleLocals = map[string]bool{"info": true, "support": true, "security": true, "admin": true, "administrator": true, "root": true,
	"postmaster": true, "hostmaster": true, "webmaster": true, "abuse": true, "help": true, "bugs": true, "bug": true, "submit": true,
	"contact": true, "sales": true, "team": true, "maintainers": true, "maintainer": true, "press": true, "legal": true, "license": true,
	"licensing": true, "office": true, "hello": true, "feedback": true, "git": true, "packages": true, "release": true, "releases": true,
	"devel": true, "dev": true, "announce": true, "questions": true, "core": true, "conduct": true, "moderation": true, "owner": true}

// Address classifies a lower-case e-mail address.
func Address(addr string) AddressKind {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || local == "" || domain == "" {
		return AddressNone
	}
	tld := domain[strings.LastIndexByte(domain, '.')+1:]
	switch {
	case exampleDomains[domain] || reservedTLDs[tld] || strings.HasPrefix(domain, "example.") || strings.HasSuffix(domain, ".example.com"),
		unitOrFile[tld], placeholderLocals[local], !plausibleTLD(tld), messageID(local):
		return AddressNone
	case mailingList(local, domain), noReply(local):
		return AddressNone
	case placeholderSpelling(local, domain):
		return AddressNone
	case strings.HasPrefix(local, "incoming+"), // an issue tracker's inbox (GitLab service desk)
		strings.Contains(local, "%"): // URL-encoded: a login inside a URL (he%2f%2fo@pypi.company.com)
		return AddressNone
	case roleLocals[local] || strings.HasPrefix(domain, "bugs.") || strings.HasPrefix(domain, "users.noreply."),
		local == strings.SplitN(domain, ".", 2)[0]: // fftw@fftw.org: the project's own mailbox, not a person
		return AddressRole
	}
	for _, sep := range []string{"-", "+", "_"} { // security-team@, debian-devel@
		if i := strings.LastIndex(local, sep); i > 0 && roleLocals[local[i+1:]] {
			return AddressRole
		}
	}
	return AddressPersonal
}

// mailingList recognises list servers and list addresses: list@, majordomo@, *-request@,
// *-owner@, *-subscribe@, lists.*, vger.kernel.org, googlegroups.com.
func mailingList(local, domain string) bool {
	if strings.HasPrefix(local, "bug-") || strings.HasPrefix(local, "help-") || strings.HasPrefix(local, "info-") { // GNU lists
		return true
	}
	if local == "list" || local == "lists" || strings.Contains(local, "majordomo") || strings.Contains(local, "listserv") || strings.Contains(local, "mailman") {
		return true
	}
	for _, s := range []string{"-request", "-owner", "-subscribe", "-unsubscribe", "-list", "-announce", "-digest",
		"-discuss", "-discussion", "-devel", "-dev", "-commit", "-commits", "-cvs", "-svn", "-git", "-users", "-user",
		"-patches", "-bugs", "-general", "-maintainers"} {
		if strings.HasSuffix(local, s) {
			return true
		}
	}
	if host := strings.SplitN(domain, ".", 2)[0]; strings.HasSuffix(host, "lists") { // freelists.org, mlists.…
		return true
	}
	return strings.HasPrefix(domain, "lists.") || strings.HasPrefix(domain, "list.") || strings.HasPrefix(domain, "vger.") ||
		strings.HasSuffix(domain, "googlegroups.com") || strings.HasPrefix(domain, "groups.")
}

func noReply(local string) bool {
	if strings.HasSuffix(local, "bot") || strings.Contains(local, "+bot") || strings.Contains(local, "[bot]") { // npm-cli+bot@, dependabot@
		return true
	}
	l := strings.NewReplacer("-", "", "_", "", ".", "").Replace(local)
	for _, s := range []string{"noreply", "donotreply", "bounce", "mailerdaemon", "daemon", "nobody", "notifications", "notification"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// exampleHost reports whether a host name is an illustration rather than a place: a reserved
// example domain, a reserved top-level domain, localhost or a loopback or unspecified address.
func exampleHost(host string) bool {
	tld := host[strings.LastIndexByte(host, '.')+1:]
	return exampleDomains[host] || reservedTLDs[tld] || strings.HasPrefix(host, "example.") || strings.HasSuffix(host, ".example.com") ||
		strings.HasPrefix(host, "127.") || host == "0.0.0.0" || strings.HasPrefix(host, "192.168.") || strings.HasPrefix(host, "10.")
}

// genericTLDs are the generic top-level domains seen in addresses; with the two-letter
// country codes they tell a domain from a file name (en@quot.header, be@latin.po).
var genericTLDs = map[string]bool{"com": true, "org": true, "net": true, "edu": true, "gov": true, "mil": true, "int": true, "info": true,
	"biz": true, "name": true, "pro": true, "dev": true, "app": true, "io": true, "ai": true, "tech": true, "email": true, "xyz": true,
	"online": true, "site": true, "cloud": true, "systems": true, "software": true, "technology": true, "company": true, "coop": true,
	"museum": true, "aero": true, "eu": true, "asia": true, "ninja": true, "space": true, "blog": true, "page": true, "network": true,
	"works": true, "services": true, "solutions": true, "digital": true, "rocks": true, "one": true, "life": true, "world": true}

func plausibleTLD(tld string) bool {
	return genericTLDs[tld] || len(tld) == 2 && allLetters(tld)
}

// messageID recognises the local part of a Message-ID or commit reference
// (514B5D8A.6040705@grothoff.org): hex and digits with dots, no name.
func messageID(local string) bool {
	if strings.HasSuffix(local, ".fsf") { // Gnus message IDs: 7vtzf77wjp.fsf@host
		return true
	}
	digits := 0
	for i := 0; i < len(local); i++ {
		if isDigit(local[i]) && i >= 8 && digitsAt(local, i-8, 9) { // a timestamp: 20130713144407.GA27334@
			return true
		}
		switch c := local[i]; {
		case isDigit(c):
			digits++
		case c == '.' || c >= 'a' && c <= 'f':
		default:
			return false
		}
	}
	return digits >= 6
}

// placeholderSpelling recognises placeholders spelled across the address so no tool links them
// (a@dd.re.ss, mail@addre.ss, you@your.domain): with its dots and '@' taken out the address
// spells a word that stands for "an address", not a mailbox anyone reads.
func placeholderSpelling(local, domain string) bool {
	joined := strings.ReplaceAll(local+domain, ".", "")
	for _, w := range []string{"address", "yourdomain", "youremail", "yourname", "someone", "somewhere"} {
		if strings.Contains(joined, w) {
			return true
		}
	}
	return false
}
