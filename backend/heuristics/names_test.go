package heuristics

import (
	"strings"
	"testing"
)

// TestNameBeside: the name written next to an address, on its line, in each way Debian
// copyright files, AUTHORS files and mail headers write it; nothing where no name stands there.
func TestNameBeside(t *testing.T) {
	for _, tc := range []struct{ line, addr, want string }{
		{"Upstream-Contact: Daniel Stenberg <daniel@haxx.se>", "daniel@haxx.se", "Daniel Stenberg"},
		{"           Linus Nielsen Feltzing <linus@haxx.se>", "linus@haxx.se", "Linus Nielsen Feltzing"},
		{"Copyright: 1995-2017 Bdale Garbee <bdale@gag.com>", "bdale@gag.com", "Bdale Garbee"},
		{"Copyright (C) 2006 Jean-loup Gailly (jloup@gzip.org)", "jloup@gzip.org", "Jean-loup Gailly"},
		{"Maintainer: Vincent van der Berg <v@berg.nl>", "v@berg.nl", "Vincent van der Berg"},
		{"  J. R. Hacker <jr@hack.er>", "jr@hack.er", "J. R. Hacker"},
		{"Report to jane@roe.org (Jane Roe) please.", "jane@roe.org", "Jane Roe"},
		{"Report to <jane@roe.org> (Jane Roe) please.", "jane@roe.org", "Jane Roe"},
		{"Jérôme O'Brien <jo@b.ie>", "jo@b.ie", "Jérôme O'Brien"},
		{"Attendees: Tomás Reyes tomas.reyes@lumenworks.com, Sam Patel sam@k.net", "tomas.reyes@lumenworks.com", "Tomás Reyes"},
		{"Attendees: Tomás Reyes tomas.reyes@lumenworks.com, Sam Patel sam@k.net", "sam@k.net", "Sam Patel"},
		{"Bdale Garbee bdale@gag.com", "bdale@gag.com", "Bdale Garbee"},
		{"Copyright: 2019-2022, Björn Stenberg, <bjorn@haxx.se>", "bjorn@haxx.se", "Björn Stenberg"},
		// No name beside it.
		{"Please Send Reports daniel@haxx.se", "daniel@haxx.se", ""},
		{"Attendees: Sam Patel (Kestrel) sam@k.net", "sam@k.net", ""},
		{"Send mail to <zlib@gzip.org> for help.", "zlib@gzip.org", ""},
		{"Contact: ann@lee.dev", "ann@lee.dev", ""},
		{"Thanks to The Team <team@x.org>", "team@x.org", ""},
		{"Copyright 2011 Someone <s@one.org>", "s@one.org", ""},
		{"written by daniel@haxx.se (see AUTHORS)", "daniel@haxx.se", ""},
		{"Mark Adler <madler@alumni.caltech.edu>, Jean-loup Gailly", "madler@alumni.caltech.edu", "Mark Adler"},
	} {
		text := "first line\n" + tc.line + "\nlast line"
		at := strings.Index(text, tc.addr)
		if got := NameBeside(text, at, at+len(tc.addr)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
	// Tables: the row's name column (Markdown, under a "Name" header; a spreadsheet row as
	// the CSV reader renders it); nothing where the table has no such column or the cell is
	// not a person's name.
	for _, tc := range []struct{ text, addr, want string }{
		{"# Contacts\n\nName | Company | Email | Phone\nGordon Pell | Larchmont | gordon@bt.com | 0113\nDerek Ashworth | Larchmont | derek@outlook.com | \n", "derek@outlook.com", "Derek Ashworth"},
		{"| Name | Role | Email |\n|---|---|---|\n| Sevda Yıldız | architect | s.yildiz@kestrel.de |\n", "s.yildiz@kestrel.de", "Sevda Yıldız"},
		{"name | company | email\nname: Jonas Weitkamp | company: Kestrel GmbH | email: j.w@kestrel.de\n", "j.w@kestrel.de", "Jonas Weitkamp"},
		{"Company | Email\nKestrel Garden Design | j.w@kestrel.de\n", "j.w@kestrel.de", ""},
		{"Name | Email\nBrackwater Print & Signs Ltd. | j.w@kestrel.de\n", "j.w@kestrel.de", ""},
		{"Name | Email\nj.w@kestrel.de | Jonas\n", "j.w@kestrel.de", ""},
		{"name: Kestrel office | email: j.w@kestrel.de\n", "j.w@kestrel.de", ""},
	} {
		at := strings.Index(tc.text, tc.addr)
		if got := NameBeside(tc.text, at, at+len(tc.addr)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
	if NameBeside("x", 0, 5) != "" || NameBeside("abc", 2, 1) != "" {
		t.Error("out of range")
	}
}
