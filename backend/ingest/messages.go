package ingest

import (
	"fmt"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// The sentences a client shows for what registration did with a file. They live here, with
// the rules that decide them, so the window, the CLI and MCP say the same thing and none of
// them has to guess from a status chip why a document holds no text.
const (
	MsgRegistered      = "Registered: analysis queued"
	MsgUnchanged       = "Unchanged: this file is already stored"
	MsgUnchangedFailed = "Unchanged: this file failed before and has not changed since; retry it to read it again"
	// MsgEmpty is the note of a document whose file is empty.
	MsgEmpty = "empty — nothing to index"
	// MsgNoText is the note of a non-empty file in which the reader found no text.
	MsgNoText = "no text found — nothing to index"
)

// DuplicateMessage is the result message and note of a file whose bytes another document
// already holds.
func DuplicateMessage(originalPath string) string {
	return fmt.Sprintf("same content as %s, not read again", originalPath)
}

// FailedCopyMessage is the result message of a file whose bytes already failed to be read at
// another path.
func FailedCopyMessage(originalPath string) string {
	return fmt.Sprintf("same content as %s, which could not be read; failed the same way", originalPath)
}

// Note is the one sentence a client shows next to a document whose status alone would mislead:
// an analyzed document that holds no text of its own (empty, no text found, or a duplicate).
// originalPath is the path of d.DuplicateOf's document ("" when unknown). It is "" for every
// other document: a failed one carries its error, a pending one its phases.
func Note(d store.Document, originalPath string) string {
	if !isStatus(d, docstate.Analyzed, docstate.Semantic) {
		return ""
	}
	switch {
	case d.DuplicateOf != "":
		if originalPath == "" {
			originalPath = d.DuplicateOf
		}
		return DuplicateMessage(originalPath)
	case d.PhaseAnalyze == "skipped" && d.Size == 0:
		return MsgEmpty
	case d.PhaseAnalyze == "skipped":
		return MsgNoText
	}
	return ""
}

// CanRetry reports whether reading d's file again can change anything, so a client offers
// Retry only where it may help: not for a removed document or a text, and not for a failure the
// error registry calls permanent (an unsupported format, a damaged file: the same bytes fail the
// same way; a changed file is read again by itself).
func CanRetry(d store.Document) bool {
	if d.Kind != "file" || d.Path == "" || isStatus(d, docstate.Removed) {
		return false
	}
	// A failure the registry calls permanent (unsupported, damaged) repeats on the same bytes;
	// the UI offers Retry only where reading again may help, by the same rule.
	if isStatus(d, docstate.Failed) && len(d.LastError) > 0 && !errs.Retryable(errs.FromEnvelope(d.LastError)) {
		return false
	}
	return true
}

// StaysFailed reports whether d is a failure that reading the same bytes again would repeat:
// its bytes were hashed and its error is permanent (the registry's Retryable is false, e.g.
// ANALYSIS_FAILED). Such a document stays failed while its file keeps those bytes — through
// watcher events, reconciles and restarts — and a copy of those bytes fails the same way; a
// failure whose cause may pass (FILE_UNREADABLE: permissions, a lock) is tried again.
func StaysFailed(d store.Document) bool {
	return isStatus(d, docstate.Failed) && d.ContentHash != "" && len(d.LastError) > 0 &&
		!errs.Retryable(errs.FromEnvelope(d.LastError))
}
