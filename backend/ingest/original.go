package ingest

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// originalFirst reports whether a ranks before b as the original of the bytes they share: the
// file with the oldest mtime, ties broken by path (byte order), then by ID.
//
// Why: which of several byte-identical files is read, holds the chunks, is cited by search
// and carries every derived link must not depend on the order the files arrived in — two
// stores built from the same files in different orders must be identical (issue 14). And the
// oldest file is what a person calls the original: a backup copied later is the copy. The
// mtimes are the ones stored (documents.mtime, fixed-width UTC, so they compare as strings).
func originalFirst(a, b store.Document) bool {
	if a.Mtime != b.Mtime {
		return a.Mtime < b.Mtime
	}
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	return a.DocumentID < b.DocumentID
}

// isReadOriginal reports whether d holds its bytes' text itself: a live file whose own
// analysis wrote chunks (not a duplicate, not empty, not pending, not failed). Only such a
// document can be what others are duplicates of.
func isReadOriginal(d store.Document) bool {
	return d.Path != "" && isStatus(d, docstate.Analyzed, docstate.Semantic) && d.DuplicateOf == "" && d.PhaseAnalyze == "done"
}

// settleOriginals runs after analyses are written (WriteAnalyses): for the bytes of each
// document just read, the read original that ranks first (originalFirst) stays, and every
// other read original of the same bytes — the one a file that ranks before it has now
// replaced, or the one just read when a better one was read first — becomes a duplicate of
// it, and so do the documents that were duplicates of those. Until the better file's own
// analysis is written the former original stays searchable, so the text never drops out of
// the index; and as every read ends here, the end state is the rule's choice whatever the
// order of arrival or of the jobs.
func (in *Ingester) settleOriginals(ctx context.Context, tx *store.Tx, written []store.Document, now string) error {
	seen := map[string]bool{}
	for _, w := range written {
		if w.PhaseAnalyze != "done" || w.ContentHash == "" || seen[w.ContentHash] {
			continue
		}
		seen[w.ContentHash] = true
		same, err := store.DocumentsByHash(ctx, tx, w.ContentHash)
		if err != nil {
			return err
		}
		var best *store.Document
		for i := range same {
			if isReadOriginal(same[i]) && (best == nil || originalFirst(same[i], *best)) {
				best = &same[i]
			}
		}
		if best == nil {
			continue
		}
		for _, d := range same {
			if d.DocumentID == best.DocumentID || !isReadOriginal(d) {
				continue
			}
			if err := in.demoteOriginal(ctx, tx, d, *best, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// demoteOriginal makes d, a read original, a duplicate of best, which holds the same bytes
// and ranks before it: d's chunks (and with them their vectors) leave the index, its queued
// jobs are cancelled (its enrich job stays, to retract what d's content caused), and what
// duplicated d now duplicates best. Like any duplicate, d says "same content as best, not
// read again".
func (in *Ingester) demoteOriginal(ctx context.Context, tx *store.Tx, d, best store.Document, now string) error {
	if err := setStatus(&d, docstate.OriginalSuperseded); err != nil {
		return err
	}
	dups, err := store.DocumentsDuplicating(ctx, tx, d.DocumentID)
	if err != nil {
		return err
	}
	if err := store.CancelJobs(ctx, tx, d.DocumentID, "", errs.EnvelopeJSON(supersededErr()), now); err != nil {
		return err
	}
	if err := store.DeleteChunks(ctx, tx, d.DocumentID); err != nil {
		return err
	}
	d.DuplicateOf, d.PhaseAnalyze, d.PhaseSemantic, d.LastError, d.Pages, d.UpdatedAt = best.DocumentID, "skipped", "skipped", nil, 0, now
	if err := store.UpdateDocument(ctx, tx, d); err != nil {
		return err
	}
	planned := []PlannedEntity{in.duplicateObservation(d, best, now)}
	for _, x := range dups {
		x.DuplicateOf, x.UpdatedAt = best.DocumentID, now
		if err := store.UpdateDocument(ctx, tx, x); err != nil {
			return err
		}
		planned = append(planned, in.duplicateObservation(x, best, now))
	}
	return writeObserved(ctx, tx, d.PayloadID, planned, nil, now)
}

// duplicateObservation records on d's entity that it is now a duplicate of best, so the
// entity's duplicate_of says what the document row says (the registration's observation
// named the former original, or none).
func (in *Ingester) duplicateObservation(d, best store.Document, now string) PlannedEntity {
	fields := map[string]any{"duplicate_of": best.DocumentID}
	return observation(in.docType(), d.DocumentID, filepath.Base(d.Path), fields, 1, PriorityFile, "file:dedup", "dedup",
		d.PayloadID+"|"+d.Path+"|"+best.DocumentID+"|"+now, now, d.DocumentID, map[string]any{"path": d.Path})
}

// rerankOriginal applies originalFirst again when d's mtime or path changed but not its bytes
// (a touch, a move): a duplicate that now ranks before its original is read itself, and a
// read original that now ranks after one of its duplicates has the first of them read; once
// that analysis is written, settleOriginals swaps the roles. This costs one reading of the
// file when a touch reverses the order of identical files, which is rare; in return which
// file is the original is a function of the files as they are — their bytes, mtimes and
// paths — and never of the history of how they got there.
func (in *Ingester) rerankOriginal(ctx context.Context, tx *store.Tx, d store.Document, now string) error {
	switch {
	case d.DuplicateOf != "" && isStatus(d, docstate.Analyzed):
		orig, err := store.GetDocument(ctx, tx, d.DuplicateOf)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if err != nil || !isReadOriginal(orig) || originalFirst(d, orig) { // (a duplicate of nothing read is read itself)
			return queueRead(ctx, tx, d, now)
		}
	case isReadOriginal(d):
		dups, err := store.DocumentsDuplicating(ctx, tx, d.DocumentID)
		if err != nil {
			return err
		}
		var first *store.Document
		for i := range dups {
			if dups[i].Path != "" && (first == nil || originalFirst(dups[i], *first)) {
				first = &dups[i]
			}
		}
		if first != nil && originalFirst(*first, d) {
			return queueRead(ctx, tx, *first, now)
		}
	}
	return nil
}
