package ingest

import (
	"testing"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// TestStaysFailedOnlyForFailuresTheSameBytesRepeat: a permanent failure of hashed bytes stays
// (and is copied); a failure whose cause may pass, or of bytes never read, is tried again.
func TestStaysFailedOnlyForFailuresTheSameBytesRepeat(t *testing.T) {
	env := func(code string) []byte { return errs.EnvelopeJSON(errs.New(code, "x")) }
	cases := []struct {
		name string
		d    store.Document
		want bool
	}{
		{"analysis failed", store.Document{Status: "failed", ContentHash: "h", LastError: env(errs.AnalysisFailed)}, true},
		{"unsupported", store.Document{Status: "failed", ContentHash: "h", LastError: env(errs.UnsupportedFileType)}, true},
		{"unreadable: may pass", store.Document{Status: "failed", ContentHash: "h", LastError: env(errs.FileUnreadable)}, false},
		{"never hashed", store.Document{Status: "failed", LastError: env(errs.FileTooLarge)}, false},
		{"not failed", store.Document{Status: "analyzed", ContentHash: "h"}, false},
	}
	for _, c := range cases {
		if got := StaysFailed(c.d); got != c.want {
			t.Errorf("%s: StaysFailed = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestNoteAndCanRetry(t *testing.T) {
	dup := store.Document{Kind: "file", Path: "/b", Status: "analyzed", DuplicateOf: "doc_a", PhaseAnalyze: "skipped", Size: 10}
	if got := Note(dup, "/a"); got != "same content as /a, not read again" {
		t.Errorf("duplicate note %q", got)
	}
	if got := Note(store.Document{Status: "analyzed", PhaseAnalyze: "skipped"}, ""); got != MsgEmpty {
		t.Errorf("empty note %q", got)
	}
	if got := Note(store.Document{Status: "analyzed", PhaseAnalyze: "skipped", Size: 3}, ""); got != MsgNoText {
		t.Errorf("no-text note %q", got)
	}
	if got := Note(store.Document{Status: "failed", PhaseAnalyze: "skipped"}, ""); got != "" {
		t.Errorf("a failed document has its error, not a note: %q", got)
	}
	unsupported := store.Document{Kind: "file", Path: "/p.png", Status: "failed", LastError: errs.EnvelopeJSON(errs.New(errs.UnsupportedFileType, "x"))}
	broken := store.Document{Kind: "file", Path: "/p.pdf", Status: "failed", LastError: errs.EnvelopeJSON(errs.New(errs.AnalysisFailed, "x"))}
	locked := store.Document{Kind: "file", Path: "/p.pdf", Status: "failed", LastError: errs.EnvelopeJSON(errs.New(errs.FileUnreadable, "x"))}
	if CanRetry(unsupported) || CanRetry(broken) || !CanRetry(locked) || CanRetry(store.Document{Kind: "file", Path: "/x", Status: "removed"}) {
		t.Error("CanRetry: no for an unsupported format, a damaged file (permanent codes) or a removed file; yes for an unreadable one")
	}
}
