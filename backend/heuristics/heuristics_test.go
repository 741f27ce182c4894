package heuristics

import (
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/extract"
)

func TestFind(t *testing.T) {
	text := "Invoice INV-7 dated 2025-01-15, due March 3, 2025 (or 4th Apr 2025).\n" +
		"Total: €1,500.00 — also $20 and 300 EUR and USD 1,000.50.\n" +
		"Contact Ada.Lovelace@Analytical.org or see https://analytical.org/inv/7. #finance #q3review\n\n" +
		"Not a date: 2025-13-45. Not a tag: # heading, a#b, #sorted in a sentence."
	got := map[string][]string{}
	for _, f := range Find(text, nil) {
		got[f.Kind] = append(got[f.Kind], f.Value)
		if span := strings.ToLower(text[f.ByteStart:f.ByteEnd]); (f.Kind == "email" || f.Kind == "url" || f.Kind == "hashtag") && !strings.Contains(span, f.Value) {
			t.Errorf("%s %q: span %q does not hold it", f.Kind, f.Value, text[f.ByteStart:f.ByteEnd])
		}
	}
	want := map[string]string{
		"date":    "2025-01-15,2025-03-03,2025-04-04",
		"money":   "1500.00 EUR,20.00 USD,300.00 EUR,1000.50 USD",
		"email":   "ada.lovelace@analytical.org",
		"url":     "https://analytical.org/inv/7",
		"hashtag": "finance,q3review",
	}
	for k, v := range want {
		if strings.Join(got[k], ",") != v {
			t.Errorf("%s: got %v, want %s", k, got[k], v)
		}
	}
}

// TestFindNoise holds the kinds of noise seen on technical documents: none of these is a fact.
func TestFindNoise(t *testing.T) {
	// A '#' word inside a sentence, or ending a line that a sentence wraps past, is not a tag.
	for _, c := range []string{"Fix the scope of #ifdefs and add #sorted, #enum and #DB; use #rrggbb or #x1F.",
		"the grumble after #perltest.\n13. Fixed a bug"} {
		if f := Find(c, nil); len(f) > 0 {
			t.Errorf("hashtags in sentences: %+v", f)
		}
	}
	cases := []string{
		"Fix the scope of #ifdefs and #DB; use #x1F or #ABC.",
		"Set $44 _44$_Three, print $11 and see Policy $3.2 for details.",
		"reported by ann@lee.o... in a log and en@quot.header",
		"(gdb) print x\n$1 = 0\n",                            // debugger output
		"Set $HOME and use $2 in the replacement.",           // shell and regex variables
		"see [connect](#netconnectpath-connectlistener) now", // a link anchor
		"[`net.connect()`]: #netconnectpath-connectlistener", // a reference definition
		"In C:\n\n```c\n#include <stdio.h>\n```\n",           // a directive in a code block
		"the colour is #fff and it fixes #1234 too",          // a colour and an issue number
		"Mail xyz@example.com or majordomo@vger.kernel.org or linux-kernel@vger.kernel.org.",
		"Enable pg_dump@version-cluster.timer and getty@tty1.service.",
		"Replies come from no-reply@github.com and MAILER-DAEMON@mx.net.",
		"Write to the mailing list <coreutils@gnu.org> or bug-grep@gnu.org.",
		"Call `fetch('https://api.github.com/x')` or open http://localhost:8080/ and http://%s/",
		"    const price = $40;\n",  // an indented code line
		"Inline `$30 = 1` is code.", // inline code
		"## Heading #tag\n",
	}
	for _, c := range cases {
		if f := Find(c, ObviousStructure(c).Prose); len(f) > 0 {
			t.Errorf("%q: found %+v", c, f)
		}
	}
}

// TestAddress separates people from role mailboxes and from addresses that are not contacts.
func TestAddress(t *testing.T) {
	cases := map[string]AddressKind{
		"cjwatson@debian.org": AddressPersonal, "support@stripe.com": AddressRole, "security-team@debian.org": AddressRole,
		"xyz@example.com": AddressNone, "majordomo@vger.kernel.org": AddressNone, "debian-devel@lists.debian.org": AddressNone,
		"pg_dump@main.timer": AddressNone, "20130713144407.ga27334@host.rup.com": AddressNone, "en@quot.header": AddressNone, "noreply@github.com": AddressNone, "user@host.test": AddressNone,
		// Seen as "persons" in a real /usr/share/doc folder: list, commit and bot addresses and a
		// Gnus message ID.
		"webp-discuss@webmproject.org": AddressNone, "freetype-commit@nongnu.org": AddressNone, "npm-cli+bot@github.com": AddressNone,
		"7vtzf77wjp.fsf@gitster.siamese.dyndns.org": AddressNone, "dan@debian.org": AddressPersonal, "fftw@fftw.org": AddressRole, "incoming+gnome-glib-658-issue-@gitlab.gnome.org": AddressNone, "he%2f%2fo@pypi.company.com": AddressNone,
		"a@dd.re.ss": AddressNone, "procps@freelists.org": AddressNone, "mail@addre.ss": AddressNone, "add@re.ss": AddressNone, "adn+deb@diwi.org": AddressPersonal,
	}
	for addr, want := range cases {
		if got := Address(addr); got != want {
			t.Errorf("Address(%s) = %d, want %d", addr, got, want)
		}
	}
}

// TestObviousStructure keeps indented prose (changelogs, NEWS) as prose and marks indented code.
func TestObviousStructure(t *testing.T) {
	text := "Intro.\n\n  * applied a patch from Ann Lee <ann@lee.org>\n\n    x = $5;\n"
	s := ObviousStructure(text)
	if i := strings.Index(text, "ann@"); !s.Prose(i, i+11) {
		t.Errorf("indented changelog prose marked as code: %+v", s)
	}
	if i := strings.Index(text, "x = "); s.Prose(i, i+6) {
		t.Errorf("indented code not marked: %+v", s)
	}
}

func TestDocType(t *testing.T) {
	cases := map[string][3]string{
		"invoice":       {"pdf", "Invoice 7", "Bill to: Acme. Amount due: 100. Due date: soon"},
		"contract":      {"docx", "Lease", "This Agreement between the parties ... governing law ... In witness whereof"},
		"meeting-notes": {"markdown", "Weekly sync", "Attendees: A, B\nAgenda\nAction items"},
		"code":          {"code", "main.go", "package main"},
		"note":          {"text", "todo", "buy milk"},
	}
	for want, c := range cases {
		if got := DocType(c[0], c[1], c[2]); got != want {
			t.Errorf("DocType(%v) = %s, want %s", c, got, want)
		}
	}
}

func FuzzFind(f *testing.F) {
	f.Add("a@b.co 2025-01-01 $5 #tag https://x.y/z")
	f.Fuzz(func(t *testing.T, s string) {
		for _, x := range Find(s, nil) {
			if x.ByteStart < 0 || x.ByteEnd > len(s) || x.ByteStart > x.ByteEnd {
				t.Fatalf("bad span %+v in %q", x, s)
			}
		}
	})
}

// TestTitleRules: a pointer, a sentence, an address or a changelog entry is not a title.
func TestTitleRules(t *testing.T) {
	cases := map[string]string{
		"See README.md\n\nMore text.":                                    "",
		"Ann Lee <ann@lee.dev>\n\nNotes.":                                "",
		"pkg (1.2-1) unstable; urgency=low\n\n  * Fix.\n":                "",
		"This tool copies files from one place to another quickly.\n\nx": "",
		"\nRsync Notes\n===========\n\nText.":                            "Rsync Notes",
		"GNU grep NEWS   -*- outline -*-\n\n* Changes":                   "GNU grep NEWS",
		// reStructuredText: a title between an overline and an underline, after a label.
		"\n.. _`pip freeze`:\n\n==========\npip freeze\n==========\n\n\nUsage\n=====\n": "pip freeze",
	}
	for text, want := range cases {
		if got := Title("text", text); got != want {
			t.Errorf("Title(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestHashtagsOnlyInNotes: a paragraph-ending '#tag' is a tag in a note (Markdown, text) and
// noise in a generated document (gtk-doc HTML writes "#Type" references in prose).
func TestHashtagsOnlyInNotes(t *testing.T) {
	text := "Renew the Acme contract before May. #budget\n"
	for kind, want := range map[string]int{"markdown": 1, "text": 1, "html": 0, "pdf": 0} {
		n := 0
		for _, f := range FindDocument(&extract.Document{Kind: kind, Text: text}) {
			if f.Kind == "hashtag" {
				n++
			}
		}
		if n != want {
			t.Errorf("%s: %d hashtags, want %d", kind, n, want)
		}
	}
}

// TestAddressesGluedToSomethingElse: an address right after '#', ':', '/' or '=' belongs to a
// channel, a URL or a path, not to a person.
func TestAddressesGluedToSomethingElse(t *testing.T) {
	text := "Join #introspection@irc.gnome.org or use https://abc:xyz@pypi.corp.dev/simple; mail ann@lee.dev.\n"
	var got []string
	for _, f := range Find(text, nil) {
		if f.Kind == "email" {
			got = append(got, f.Value)
		}
	}
	if len(got) != 1 || got[0] != "ann@lee.dev" {
		t.Fatalf("e-mails %v, want only ann@lee.dev", got)
	}
}
