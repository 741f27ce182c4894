package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-app/strata/backend/atomicfile"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/backend/watch"
)

// Overview is the library chart's counts (documents by type, status and day).
type Overview = store.Overview

// FilesResult is the answer to ingesting paths: one outcome per file and how many failed.
// The CLI prints it; it is computed here so every transport counts failures the same way.
type FilesResult struct {
	Documents []FileOutcome `json:"documents"`
	Failed    int           `json:"failed"`
	// Summary counts what the import did (the CLI's last line is its Text).
	Summary ImportSummary `json:"summary"`
}

// FileOutcome is one file's document, phases and error.
type FileOutcome struct {
	Path       string            `json:"path"`
	DocumentID string            `json:"document_id,omitempty"`
	Status     string            `json:"status,omitempty"`
	Phases     map[string]string `json:"phases,omitempty"`
	Message    string            `json:"message,omitempty"`
	// Note is the document's note (Document.Note): "empty — nothing to index", "same content
	// as X, not read again".
	Note  string      `json:"note,omitempty"`
	Error *errs.Error `json:"error,omitempty"`
}

// IngestFiles registers paths and, with wait, processes their phases here until each is done,
// failed or skipped (progress sees the documents as they move). A file counts as failed when
// it could not be registered or when its analysis failed.
func (e *Engine) IngestFiles(ctx context.Context, who Caller, paths []string, wait bool, progress func([]Document)) (*FilesResult, error) {
	var results []PathResult
	var waited []Document
	var ignored watch.Ignored
	var err error
	started := store.FormatTime(e.now())
	if wait {
		results, waited, ignored, err = e.ingestPathsAndWait(ctx, who, paths, progress)
		if err == nil {
			// Every row as it ended: a file read early may have become the duplicate of one
			// read after it (WaitDocuments stops reading a document once it is settled).
			waited, err = e.documentRows(ctx, results)
		}
	} else {
		results, ignored, err = e.addPaths(ctx, who, paths, map[string]any{"source": who.Via()})
		if err == nil { // the rows as registration left them: a duplicate is already analyzed
			waited, err = e.documentRows(ctx, results)
		}
	}
	if err != nil {
		if se := e.storageFault(err); se != nil {
			return nil, se
		}
		return nil, errs.Wrap(errs.Internal, err, "stopped before all files were ingested")
	}
	for _, r := range results { // a file not registered for lack of space: the disk is the error
		if r.Error == nil {
			continue
		}
		if se := e.storageFault(r.Error); se != nil {
			return nil, se
		}
	}
	out := mergeOutcomes(results, waited)
	docs := make(map[string]Document, len(waited))
	for _, d := range waited {
		docs[d.DocumentID] = d
	}
	out.Summary = summarize(results, docs, ignored, started)
	return out, nil
}

// documentRows reads the (annotated) rows of the documents results name.
func (e *Engine) documentRows(ctx context.Context, results []PathResult) ([]Document, error) {
	var ids []string
	for _, r := range results {
		if r.Result != nil {
			ids = append(ids, r.Result.DocumentID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	docs, err := store.DocumentsByID(ctx, e.db.Reader(), ids)
	if err != nil {
		return nil, queryErr(err, "documents")
	}
	return docs, e.annotate(ctx, docs)
}

// mergeOutcomes turns registration results, and the final rows of the documents that were
// waited for, into one outcome per file. A waited row wins over the registration answer: it
// is where the document ended, and its error is the analysis' error.
func mergeOutcomes(results []PathResult, waited []Document) *FilesResult {
	byID := make(map[string]Document, len(waited))
	for _, d := range waited {
		byID[d.DocumentID] = d
	}
	out := &FilesResult{Documents: make([]FileOutcome, 0, len(results))}
	for _, r := range results {
		o := FileOutcome{Path: r.Path, Error: r.Error}
		if r.Result != nil {
			o.DocumentID, o.Phases, o.Message = r.Result.DocumentID, r.Result.Phases, r.Result.Message
		}
		if r.Error != nil { // with or without a result: a failed copy, an unchanged failed file
			if id, ok := r.Error.Details["document_id"].(string); ok && o.DocumentID == "" {
				o.DocumentID = id
			}
			o.Status = "failed"
		}
		if d, ok := byID[o.DocumentID]; ok && r.Result != nil {
			o.Status, o.Note = d.Status, d.Note
			o.Phases = map[string]string{"register": d.PhaseRegister, "analyze": d.PhaseAnalyze, "semantic": d.PhaseSemantic}
			if len(d.LastError) > 0 && d.Status == "failed" {
				o.Error = errs.FromEnvelope(d.LastError)
			}
		}
		if o.Error != nil && o.Status == "failed" {
			out.Failed++
		}
		out.Documents = append(out.Documents, o)
	}
	return out
}

// MaxUpload bounds one upload (a browser sends it base64 in a JSON body, so it is held in memory).
const MaxUpload = 100 << 20

// StoreUpload keeps a file sent by a browser in the data folder's uploads/ and ingests it
// there, as uploads/<short content hash>/<its own name (without folders)>: two uploads of one
// name with different contents do not overwrite each other, and the file keeps the name a
// person knows it by (the Library showed "14ccb671-tls.md"). The file is
// written atomically: a failed or interrupted upload leaves no partial file to be ingested
// by a later reconcile.
func (e *Engine) StoreUpload(ctx context.Context, who Caller, name string, data []byte) (*Import, error) {
	if len(data) > MaxUpload {
		return nil, errs.New(errs.FileTooLarge, "%s is larger than %d MB", name, MaxUpload>>20).WithHint("watch its folder instead, or use `strata ingest PATH`")
	}
	base := filepath.Base(strings.ReplaceAll(name, `\`, "/"))
	if base == "." || base == "/" || base == "" || strings.HasPrefix(base, ".") {
		base = "upload" + strings.TrimPrefix(base, ".")
	}
	sum := sha256.Sum256(data)
	dir := filepath.Join(e.DataDir(), "uploads", hex.EncodeToString(sum[:4]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot create %s", dir)
	}
	path := filepath.Join(dir, base)
	if err := atomicfile.Write(path, bytes.NewReader(data), 0o600); err != nil {
		if se := e.storageFault(err); se != nil {
			return nil, se
		}
		return nil, errs.Wrap(errs.Internal, err, "cannot store the upload")
	}
	return e.Import(ctx, who, []string{path})
}

// DocumentView is a document with its chunks, jobs, the observations made from it and the
// first page of its entity's links (asserted and derived, ends named): the document screen's
// one read.
type DocumentView struct {
	*DocumentDetail
	Observations []Observation    `json:"observations"`
	Links        RelationshipPage `json:"links"`
}

// DocumentView returns a document for the document screen.
func (e *Engine) DocumentView(ctx context.Context, id string) (*DocumentView, error) {
	d, err := e.GetDocument(ctx, id)
	if err != nil {
		return nil, err
	}
	obs, err := store.DocumentObservations(ctx, e.db.Reader(), d.DocumentID, 1000)
	if err != nil {
		return nil, queryErr(err, "observations")
	}
	if obs == nil {
		obs = []Observation{}
	}
	v := &DocumentView{DocumentDetail: d, Observations: obs, Links: RelationshipPage{Relationships: []RelationshipItem{}}}
	if d.EntityID != "" {
		links, err := e.ListRelationships(ctx, RelationshipQuery{EntityID: d.EntityID})
		if err != nil {
			return nil, err
		}
		v.Links = *links
	}
	return v, nil
}
