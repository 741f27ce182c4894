package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/jobs"
	"github.com/strata-app/strata/backend/paths"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/backend/watch"
)

// Document is a stored document's row.
type Document = store.Document

// PathResult is the outcome for one file of a multi-path ingest: the ingest result, or the
// error envelope that file got (the others continue).
type PathResult struct {
	Path   string          `json:"path"`
	Result *IngestResult   `json:"result,omitempty"`
	Error  *errs.Error     `json:"error,omitempty"`
	Doc    *store.Document `json:"document,omitempty"`
}

// Ignorer is the shared rule set for what is never ingested (also used by the watcher).
func (e *Engine) Ignorer() *watch.Ignorer { return watch.NewIgnorer(e.cfg.DataDir) }

// IngestPaths registers files and folders (recursively, skipping what the ignore rules skip).
// One bad file never stops the others: each path gets its own result or error. For a remote
// caller every path, and every file found in a folder, must pass the remote rule (a shared
// folder may still hold a .env), and a refused one is FORBIDDEN_PATH in its own result.
func (e *Engine) IngestPaths(ctx context.Context, who Caller, paths []string) ([]PathResult, error) {
	return e.ingestPaths(ctx, who, paths, map[string]any{"source": who.Via()})
}

// ingestPaths is IngestPaths with the origin provenance the files' payloads record (IngestPaths:
// the door the caller came in by; an answer filed back by ask: the question and its sources).
func (e *Engine) ingestPaths(ctx context.Context, who Caller, paths []string, origin map[string]any) ([]PathResult, error) {
	out, _, err := e.addPaths(ctx, who, paths, origin)
	return out, err
}

// Import is IngestPaths that also counts what the import did (ImportSummary) and follows it
// until its files are read: Status.Imports carries its summary, with the failures analysis
// finds. The window and the browser add files through it.
func (e *Engine) Import(ctx context.Context, who Caller, paths []string) (*Import, error) {
	return e.importPaths(ctx, who, paths, map[string]any{"source": who.Via()})
}

func (e *Engine) importPaths(ctx context.Context, who Caller, paths []string, origin map[string]any) (*Import, error) {
	started := store.FormatTime(e.now())
	results, ignored, err := e.addPaths(ctx, who, paths, origin)
	if err != nil {
		return nil, err
	}
	rows, err := e.documentRows(ctx, results)
	if err != nil {
		return nil, err
	}
	docs := make(map[string]store.Document, len(rows))
	for _, d := range rows {
		docs[d.DocumentID] = d
	}
	isDir := func(p string) bool { st, err := os.Stat(p); return err == nil && st.IsDir() }
	ti := &trackedImport{results: results, ignored: ignored, folder: commonFolder(paths, isDir), docs: docs}
	ti.summary.StartedAt = started
	sum := e.imports.add(ti, e.now())
	return &Import{ID: sum.ID, Results: results, Summary: sum}, nil
}

// addPaths finds the files of paths (walking folders by the ignore rules, which it counts) and
// registers them, counting both for Status.Progress as it goes.
func (e *Engine) addPaths(ctx context.Context, who Caller, paths []string, origin map[string]any) ([]PathResult, watch.Ignored, error) {
	var out []PathResult
	var ignored watch.Ignored
	ig := e.Ignorer()
	check := e.pathCheck(who)
	reg := e.progress.beginRegistration(true)
	defer reg.end()
	if err := e.beginProgressRun(ctx); err != nil {
		return nil, ignored, err
	}
	var files []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			out = append(out, PathResult{Path: p, Error: errs.New(errs.Validation, "cannot resolve %q", p)})
			continue
		}
		if !who.Local() {
			if abs, err = check(ctx, p); err != nil {
				out = append(out, PathResult{Path: p, Error: errs.As(err)})
				continue
			}
		}
		st, err := os.Stat(abs)
		if err != nil || !st.IsDir() {
			files = append(files, abs)
			reg.found(1)
			continue
		}
		n, err := watch.WalkCounting(ctx, abs, ig, func(path string, _ fs.FileInfo) error {
			files = append(files, path)
			reg.found(1)
			return ctx.Err()
		})
		ignored.Files += n.Files
		ignored.Folders += n.Folders
		ignored.Assets += n.Assets
		var skip *watch.SkipError
		switch {
		case errors.As(err, &skip):
			for _, s := range skip.Skipped {
				out = append(out, PathResult{Path: s.Path, Error: errs.Wrap(errs.FileUnreadable, s.Err, "skipped %s", s.Path).
					WithHint("a symlink loop, a dangling link or an unreadable folder")})
			}
		case err != nil && ctx.Err() == nil:
			out = append(out, PathResult{Path: abs, Error: errs.Wrap(errs.FileUnreadable, err, "could not walk %s", abs)})
		}
	}
	if !who.Local() {
		allowed := files[:0]
		for _, f := range files {
			real, err := check(ctx, f)
			if err != nil {
				out = append(out, PathResult{Path: f, Error: errs.As(err)})
				reg.registered(1, 1) // refused: done with it, as a failure
				continue
			}
			allowed = append(allowed, real)
		}
		files = allowed
	}
	reg.walked()
	for _, r := range e.register(ctx, reg, files, origin) {
		pr := PathResult{Path: r.Path, Result: r.Result}
		if r.Err != nil {
			pr.Error = errs.As(r.Err)
		}
		out = append(out, pr)
	}
	return out, ignored, ctx.Err()
}

// registerSlice is how many files register between two progress updates: the ingester's own
// group commit (64 registrations a transaction), so counting costs no extra commit.
const registerSlice = 64

// register registers files a slice at a time, telling reg how far it is. The workers find the
// queued analyses by themselves meanwhile (they poll every 500 ms) and are woken at the end.
func (e *Engine) register(ctx context.Context, reg *registration, files []string, origin map[string]any) []ingest.Registered {
	out := make([]ingest.Registered, 0, len(files))
	for i := 0; i < len(files); i += registerSlice {
		part := files[i:min(i+registerSlice, len(files))]
		reg.writing(len(part))
		rs := e.ingest.RegisterFiles(ctx, part, origin)
		failed := 0
		for _, r := range rs {
			if r.Err != nil {
				failed++
			}
		}
		reg.registered(len(part), failed)
		out = append(out, rs...)
	}
	reg.writing(0)
	e.runner.Wake()
	return out
}

// Runner is the engine's job runner (workers are started by RunWorkers or Serve).
func (e *Engine) Runner() *jobs.Runner { return e.runner }

// IngestPathsAndWait registers paths and waits for their phases, analysing while it
// registers (the workers start first), which is what `strata ingest --wait` does.
func (e *Engine) IngestPathsAndWait(ctx context.Context, who Caller, paths []string, progress func([]store.Document)) ([]PathResult, []store.Document, error) {
	results, docs, _, err := e.ingestPathsAndWait(ctx, who, paths, progress)
	return results, docs, err
}

// ingestPathsAndWait is IngestPathsAndWait that also says what the ignore rules left out.
func (e *Engine) ingestPathsAndWait(ctx context.Context, who Caller, paths []string, progress func([]store.Document)) ([]PathResult, []store.Document, watch.Ignored, error) {
	wctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = e.runner.Run(wctx) }() // stopped and awaited below
	defer func() { stop(); <-done }()
	results, ignored, err := e.addPaths(ctx, who, paths, map[string]any{"source": who.Via()})
	if err != nil {
		return results, nil, ignored, err
	}
	var ids []string
	for _, r := range results {
		if r.Result != nil {
			ids = append(ids, r.Result.DocumentID)
		}
	}
	docs, err := e.WaitDocuments(ctx, ids, progress)
	return results, docs, ignored, err
}

// RunWorkers processes jobs until ctx is cancelled; running jobs finish first.
func (e *Engine) RunWorkers(ctx context.Context) error { return e.runner.Run(ctx) }

// WaitDocuments blocks until every listed document has finished its phases (done, failed or
// skipped), processing jobs in this process meanwhile, and returns their final rows.
func (e *Engine) WaitDocuments(ctx context.Context, ids []string, progress func([]store.Document)) ([]store.Document, error) {
	if !e.runner.Running() { // process the jobs here unless this process already does
		wctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); _ = e.runner.Run(wctx) }() // stopped and awaited below
		defer func() { stop(); <-done }()
	}
	// The documents are read again when a batch of this process ends (BatchEnded), and on a
	// slow tick for work another process on the folder does. At 100 ms the tick re-read every
	// pending document 10 times a second: on a 991-file folder, 12 % of the ingest's CPU.
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	latest := make(map[string]store.Document, len(ids))
	pending := append([]string(nil), ids...)
	_, faults := e.storage.Fault()
	for {
		ended := e.runner.BatchEnded() // taken before the read, so a batch that ends during it is not missed
		// A storage fault seen while waiting ends the wait: on a full disk the jobs pause
		// (they resume when space returns, in whichever process runs them), and a waiting
		// command that looped until killed told nobody what to do.
		_ = e.storageFault(e.db.TakeCheckpointErr())
		if f, n := e.storage.Fault(); f != nil && n > faults {
			return nil, f
		}
		// Only documents still in progress are read again.
		docs, err := store.DocumentsByID(ctx, e.db.Reader(), pending)
		if err != nil {
			return nil, queryErr(err, "documents")
		}
		pending = pending[:0]
		for _, d := range docs {
			latest[d.DocumentID] = d
			if !settled(d) {
				pending = append(pending, d.DocumentID)
			}
		}
		all := make([]store.Document, 0, len(ids))
		for _, id := range ids {
			if d, ok := latest[id]; ok {
				all = append(all, d)
			}
		}
		if err := e.annotate(ctx, all); err != nil {
			return all, err
		}
		if progress != nil {
			progress(all)
		}
		if len(pending) == 0 {
			if err := e.syncStore(ctx); err != nil {
				return all, err
			}
			return all, nil
		}
		select { // a batch of this process ended, or (work done by another process) the tick
		case <-ctx.Done():
			return all, ctx.Err()
		case <-ended:
		case <-tick.C:
		}
	}
}

func settled(d store.Document) bool {
	busy := func(p string) bool { return p == "queued" || p == "running" || p == "pending" }
	if d.Status == "failed" || d.Status == "removed" {
		return true
	}
	return !busy(d.PhaseRegister) && !busy(d.PhaseAnalyze) && !(busy(d.PhaseSemantic) && d.PhaseAnalyze == "done")
}

// DocumentPage is a page of documents.
type DocumentPage struct {
	Documents []store.Document `json:"documents"`
	Total     int              `json:"total"`
	Limit     int              `json:"limit"`
	Offset    int              `json:"offset"`
}

// ListDocuments pages through documents, optionally by status or path prefix.
func (e *Engine) ListDocuments(ctx context.Context, status, pathPrefix string, limit, offset int) (*DocumentPage, error) {
	return e.QueryDocuments(ctx, DocumentQuery{Status: status, Path: pathPrefix, Limit: Limit(limit), Offset: offset})
}

// DocumentQuery selects documents: by status, path prefix (a folder) and document type, in an
// order (Sort, Desc), a page at a time.
type DocumentQuery struct {
	Status string `json:"status,omitempty"`
	Path   string `json:"path,omitempty"`
	Type   string `json:"type,omitempty"`   // "pending": not analysed yet; "other": analysed (or failed) without a type
	Recent bool   `json:"recent,omitempty"` // newest change of any kind first (the UI's failure notice); overrides Sort
	// Sort is the order (path when empty); Desc reverses it. Ties are broken by document ID
	// in the same direction, so Desc is exactly the reverse.
	Sort   DocumentSort `json:"sort,omitempty"`
	Desc   bool         `json:"desc,omitempty"`
	Limit  Limit        `json:"limit,omitempty"` // 1–1000; omitted: 100 (limit.go)
	Offset int          `json:"offset,omitempty"`
}

// DocumentSort is an order of QueryDocuments.
type DocumentSort string

// The orders of a document listing.
const (
	// SortAdded is by when Strata got the document's current content: when it was added, or
	// when its file's content last changed (Document.ChangedAt), not every phase's update.
	SortAdded  DocumentSort = store.SortAdded
	SortName   DocumentSort = store.SortName   // by title, case-insensitive
	SortSize   DocumentSort = store.SortSize   // by size in bytes
	SortStatus DocumentSort = store.SortStatus // failed, registered, analyzed, semantic, removed
	SortPath   DocumentSort = store.SortPath   // by path (a note by its title); the default
)

// DocumentSortEnum is the orders for Wails' EnumBind, so the UI offers exactly these.
var DocumentSortEnum = docstate.Enum([]DocumentSort{SortAdded, SortName, SortSize, SortStatus, SortPath})

// QueryDocuments pages through documents matching q in q's order, with the number matching.
// Each order walks an index (migration 0017), so a page costs about the same at any offset of
// 100,000 documents (BenchmarkDocumentList).
func (e *Engine) QueryDocuments(ctx context.Context, q DocumentQuery) (*DocumentPage, error) {
	status, pathPrefix := q.Status, folderFilter(q.Path)
	limit, offset, err := pageLimit(int(q.Limit), q.Offset)
	if err != nil {
		return nil, err
	}
	switch status {
	case "", "registered", "analyzed", "semantic", "failed", "removed":
	default:
		return nil, errs.New(errs.Validation, "status %q is not registered, analyzed, semantic, failed or removed", status).With("field", "status")
	}
	if !store.ValidDocumentSort(string(q.Sort)) {
		return nil, errs.New(errs.Validation, "sort %q is not added, name, size, status or path", q.Sort).With("field", "sort")
	}
	list, total, err := store.ListDocuments(ctx, e.db.Reader(), store.DocumentFilter{Status: status, PathPrefix: pathPrefix, FoldCase: paths.Host.FoldsCase(), DocType: q.Type,
		Recent: q.Recent, Sort: string(q.Sort), Desc: q.Desc, Limit: limit, Offset: offset})
	if err != nil {
		return nil, queryErr(err, "documents")
	}
	if err := e.annotate(ctx, list); err != nil {
		return nil, err
	}
	return &DocumentPage{Documents: list, Total: total, Limit: limit, Offset: offset}, nil
}

// annotate fills the fields a client shows but the store does not keep: the path of the
// document a duplicate shares its content with, and the note that says why an analyzed
// document holds no text of its own (ingest.Note), so every client says the same thing.
func (e *Engine) annotate(ctx context.Context, docs []store.Document) error {
	var orig []string
	for _, d := range docs {
		if d.DuplicateOf != "" {
			orig = append(orig, d.DuplicateOf)
		}
	}
	paths := map[string]string{}
	if len(orig) > 0 {
		list, err := store.DocumentsByID(ctx, e.db.Reader(), orig)
		if err != nil {
			return queryErr(err, "documents")
		}
		for _, o := range list {
			paths[o.DocumentID] = o.Path
		}
	}
	for i := range docs {
		docs[i].DuplicateOfPath = paths[docs[i].DuplicateOf]
		docs[i].Note = ingest.Note(docs[i], docs[i].DuplicateOfPath)
		docs[i].CanRetry = ingest.CanRetry(docs[i])
	}
	return nil
}

// DocumentDetail is a document with its chunks and jobs.
type DocumentDetail struct {
	store.Document
	Chunks []store.Chunk `json:"chunks"`
	Jobs   []store.Job   `json:"jobs"`
}

// GetDocument returns a document, its chunks (of the document holding the content, for a
// duplicate) and its jobs.
func (e *Engine) GetDocument(ctx context.Context, id string) (*DocumentDetail, error) {
	d, err := e.GetDocumentRow(ctx, id)
	if err != nil {
		return nil, err
	}
	src := d.DocumentID
	if d.DuplicateOf != "" {
		src = d.DuplicateOf
	}
	chunks, err := store.ChunksOf(ctx, e.db.Reader(), src)
	if err != nil {
		return nil, queryErr(err, "chunks")
	}
	jobs, err := store.JobsOf(ctx, e.db.Reader(), d.DocumentID)
	if err != nil {
		return nil, queryErr(err, "jobs")
	}
	return &DocumentDetail{Document: d, Chunks: chunks, Jobs: jobs}, nil
}

// GetDocumentRow returns a document without its chunks and jobs.
func (e *Engine) GetDocumentRow(ctx context.Context, id string) (store.Document, error) {
	d, err := store.GetDocument(ctx, e.db.Reader(), id)
	if errors.Is(err, store.ErrNotFound) {
		return d, errs.New(errs.DocumentNotFound, "document %s does not exist", id).With("document_id", id).
			WithHint("list documents with `strata documents`")
	}
	if err != nil {
		return d, queryErr(err, "the document")
	}
	one := []store.Document{d}
	if err := e.annotate(ctx, one); err != nil {
		return d, err
	}
	return one[0], nil
}

// Retry registers a document's file again and re-queues its analysis (after a failure, or to
// re-read a file with a newer reader). It reads the file again, so a remote caller may retry
// only a document whose path the remote rule allows today.
func (e *Engine) Retry(ctx context.Context, who Caller, id string) (*IngestResult, error) {
	d, err := store.GetDocument(ctx, e.db.Reader(), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errs.New(errs.DocumentNotFound, "document %s does not exist", id).With("document_id", id)
	}
	if err != nil {
		return nil, queryErr(err, "the document")
	}
	if d.Kind != "file" || d.Path == "" {
		return nil, errs.New(errs.Validation, "document %s is not a file; only files can be retried", id)
	}
	if _, err := e.pathCheck(who)(ctx, d.Path); err != nil {
		return nil, err
	}
	now := store.FormatTime(e.now())
	err = e.db.WriteTx(ctx, func(tx *store.Tx) error {
		// Forget the version so registration treats the file as changed and queues it again.
		d.ContentHash, d.UpdatedAt = "", now
		return store.UpdateDocument(ctx, tx, d)
	})
	if err != nil {
		return nil, errs.Wrap(errs.DBInsertFailed, err, "could not reset %s", id)
	}
	res, err := e.ingest.RereadFile(ctx, d.Path, map[string]any{"source": "retry"})
	if err != nil {
		return nil, errs.As(err)
	}
	e.runner.Wake()
	return res, nil
}
