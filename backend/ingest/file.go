package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// DefaultMaxFileBytes is the default size limit for one file (200 MB).
const DefaultMaxFileBytes = 200 << 20

// Phases of a file (ADR-028): register is synchronous; analyze and semantic are durable jobs.
const (
	PhaseRegister = "register"
	PhaseAnalyze  = "analyze"
	PhaseSemantic = "semantic"
	// PhaseEmbed builds a document's vectors in the semantic space (Ollama) in the background;
	// the static vectors are written with the chunks in analyze.
	PhaseEmbed = "embed"
	// PhaseEnrich runs the enrichments for a document (backend/enrich). The store queues it
	// itself whenever a document changes (migration 0008's triggers), in the transaction
	// that changed it.
	PhaseEnrich = "enrich"
)

// fileInput is {file_path} for ingest. It has no client_request_id: registering a file is
// already idempotent by content, so a retry returns the same document anyway.
type fileInput struct {
	FilePath string `json:"file_path"`
	Source   string `json:"source"`
	AgentID  string `json:"agent_id"`
}

// maxFileBytes is the configured limit.
func (in *Ingester) maxFileBytes() int64 {
	if in.MaxFileBytes > 0 {
		return in.MaxFileBytes
	}
	return DefaultMaxFileBytes
}

// RegisterFile is phase 1 for one path: stat, size limit, SHA-256, type sniffing, dedup by
// content, the document row and its entity. It returns at once with the IDs and queues the
// analyze job; a file that cannot be read is recorded as a failed document and the error is
// returned as well, so a folder ingest lists it and moves on.
func (in *Ingester) RegisterFile(ctx context.Context, path string, origin map[string]any) (*Result, error) {
	out := in.RegisterFiles(ctx, []string{path}, origin)
	return out[0].Result, out[0].Err
}

// Registered is the outcome of registering one path.
type Registered struct {
	Path   string
	Result *Result
	Err    error
}

// registerBatch is how many registrations share one transaction (group commit).
const registerBatch = 64

// RegisterFiles registers many paths: reading, hashing and sniffing happen outside any
// transaction, and the writes of up to registerBatch files share one transaction. Each file
// gets its own result or error; failures are recorded as failed documents.
func (in *Ingester) RegisterFiles(ctx context.Context, paths []string, origin map[string]any) []Registered {
	return in.registerFiles(ctx, paths, origin, false)
}

// RereadFile registers path to be read again, as Retry asks: like RegisterFile, except that a
// failure of the same bytes at another path is not copied (re-reading is the point; a failure
// may have been the reader's, or a time limit's).
func (in *Ingester) RereadFile(ctx context.Context, path string, origin map[string]any) (*Result, error) {
	out := in.registerFiles(ctx, []string{path}, origin, true)
	return out[0].Result, out[0].Err
}

func (in *Ingester) registerFiles(ctx context.Context, paths []string, origin map[string]any, reread bool) []Registered {
	out := make([]Registered, len(paths))
	type prepared struct {
		i   int
		reg *fileReg
	}
	var batch []prepared
	flush := func() {
		if len(batch) == 0 {
			return
		}
		results := make([]*Result, len(batch))
		fileErrs := make([]*errs.Error, len(batch))
		err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
			for k, p := range batch {
				r, fileErr, err := in.writeRegistration(ctx, tx, p.reg)
				if err != nil {
					return err
				}
				results[k], fileErrs[k] = r, fileErr
			}
			return nil
		})
		for k, p := range batch {
			switch {
			case err == nil:
				out[p.i].Result = results[k]
				if fileErrs[k] != nil {
					out[p.i].Err = fileErrs[k]
				}
			case errs.As(err).Code != errs.Internal:
				out[p.i].Err = errs.As(err)
			default:
				out[p.i].Err = errs.Wrap(errs.DBInsertFailed, err, "could not register %s", p.reg.abs).WithHint("nothing was written; retry")
			}
		}
		batch = batch[:0]
	}
	for i, path := range paths {
		out[i].Path = path
		o := map[string]any{}
		for k, v := range origin {
			o[k] = v
		}
		reg, err := in.prepareFile(ctx, path, o)
		if err != nil {
			if f, ok := err.(fileFailure); ok {
				out[i].Err = in.failFile(ctx, reg.abs, f)
			} else {
				out[i].Err = err
			}
			continue
		}
		reg.reread = reread
		batch = append(batch, prepared{i, reg})
		if len(batch) == registerBatch {
			flush()
		}
	}
	flush()
	return out
}

// fileReg is a file read and hashed, ready to be written.
type fileReg struct {
	abs                              string
	st                               os.FileInfo
	hash                             string
	size                             int64
	kind, mime                       string
	canon                            []byte
	contentID, payloadID, subID, now string
	origin                           map[string]any
	reread                           bool // Retry: read the bytes even if they failed elsewhere
}

// fileFailure is a problem with the file itself, recorded as a failed document, with what
// was learnt of the file before it failed (its real size and mtime, its hash when it was read)
// so the library shows the file as it is and a reconcile can tell it has not changed.
type fileFailure struct {
	err  error
	st   os.FileInfo // nil when the file could not be stat'ed
	hash string      // "" when it was not read
}

func (f fileFailure) Error() string { return f.err.Error() }

func failure(err error) error { return fileFailure{err: err} }

func (in *Ingester) prepareFile(ctx context.Context, path string, origin map[string]any) (*fileReg, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, errs.New(errs.Validation, "cannot resolve path %q", path).With("field", "file_path")
	}
	abs = filepath.Clean(abs)
	st, err := os.Stat(abs) // follows symlinks; a loop is an error here
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, errs.New(errs.FileNotFound, "%s does not exist", abs).With("path", abs).WithHint("check the path; it may have been moved or deleted")
		case isLoop(err):
			return &fileReg{abs: abs}, failure(errs.New(errs.FileNotFound, "%s is a symlink loop", abs).With("path", abs).
				WithHint("fix or remove the link"))
		default:
			return &fileReg{abs: abs}, failure(errs.Wrap(errs.FileUnreadable, unwrapPathErr(err), "cannot read %s", abs).With("path", abs).
				WithHint("check the file's permissions"))
		}
	}
	if st.IsDir() {
		return nil, errs.New(errs.Validation, "%s is a folder", abs).With("path", abs).
			WithHint("ingest a folder with `strata ingest DIR` or watch it with `strata watch add DIR`")
	}
	if !st.Mode().IsRegular() {
		return nil, errs.New(errs.UnsupportedFileType, "%s is not a regular file", abs).With("path", abs)
	}
	if st.Size() > in.maxFileBytes() {
		return &fileReg{abs: abs}, fileFailure{st: st, err: errs.New(errs.FileTooLarge, "%s is %d bytes; the limit is %d", abs, st.Size(), in.maxFileBytes()).
			With("path", abs).With("file_size_bytes", st.Size()).With("max_size_bytes", in.maxFileBytes()).
			WithHint("raise the limit with --max-file-mb, or split the file")}
	}
	hash, head, size, err := hashFile(ctx, abs, in.maxFileBytes())
	if err != nil {
		return &fileReg{abs: abs}, fileFailure{st: st, err: err}
	}
	kind, mime := extract.Sniff(head, abs)
	if kind == "" {
		msg := fmt.Sprintf("%s is not a format Strata reads", filepath.Base(abs))
		hint := "Strata reads text, Markdown, HTML, PDF, DOCX, CSV, JSON and source code"
		if named := extract.NamedFormat(abs); named != "" {
			// The name promises a format the bytes are not (random data saved as notes.md).
			msg = fmt.Sprintf("%s holds binary data, not the %s its name promises", filepath.Base(abs), named)
			hint = "the file may be damaged or mislabelled; open it to check, or restore it from a copy"
		}
		return &fileReg{abs: abs}, fileFailure{st: st, hash: hash, err: errs.New(errs.UnsupportedFileType, "%s", msg).
			With("path", abs).With("file_size_bytes", size).WithHint("%s", hint)}
	}
	now := in.Now().UTC()
	nowS := store.FormatTime(now)
	canon := ids.MustMarshal(map[string]any{"sha256": hash})
	contentID := ids.PayloadContent("file", canon)
	payloadID := ids.Payload(contentID)
	if origin == nil {
		origin = map[string]any{}
	}
	origin["path"], origin["mtime"], origin["size"] = abs, store.FormatTime(st.ModTime()), size
	subID, err := ids.Submission()
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "could not make a submission ID")
	}
	return &fileReg{abs: abs, st: st, hash: hash, size: size, kind: kind, mime: mime, canon: canon, contentID: contentID,
		payloadID: payloadID, subID: subID, origin: origin, now: nowS}, nil
}

// writeRegistration is the transactional half of registering one prepared file. Besides the
// result it returns the file's own failure (fileErr) when the file is, or stays, failed: an
// unchanged failed file, or a copy of a file whose content could not be read. That failure is
// the file's, not the transaction's, so the batch it shares a transaction with is written.
func (in *Ingester) writeRegistration(ctx context.Context, tx *store.Tx, r *fileReg) (res *Result, fileErr *errs.Error, err error) {
	abs, st, hash, size, kind, mime, canon := r.abs, r.st, r.hash, r.size, r.kind, r.mime, r.canon
	contentID, payloadID, subID, origin, nowS := r.contentID, r.payloadID, r.subID, r.origin, r.now
	res = &Result{InputKind: KindExtractFile, PayloadID: payloadID, PayloadContentID: contentID, PayloadSubmissionID: subID,
		EntityIDs: []string{}, Entities: []EntityRef{}, RelationshipIDs: []string{}}
	_, created, err := store.InsertPayload(ctx, tx, store.Payload{PayloadID: payloadID, PayloadContentID: contentID, Kind: "file",
		Body: canon, Origin: ids.MustMarshal(origin), CreatedAt: nowS})
	if err != nil {
		return nil, nil, err
	}
	if err := store.InsertSubmission(ctx, tx, store.Submission{SubmissionID: subID, PayloadID: payloadID, Created: created,
		Origin: ids.MustMarshal(origin), CreatedAt: nowS}); err != nil {
		return nil, nil, err
	}
	existing, err := store.DocumentByPath(ctx, tx, abs)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, nil, err
	}
	have := err == nil
	if have && existing.ContentHash == hash && !isStatus(existing, docstate.Removed) && (!isStatus(existing, docstate.Failed) || StaysFailed(existing)) {
		// The same bytes as stored. A touched file only gets its new mtime, so that the next
		// reconcile does not hash it again; its status does not move. A failed file stays
		// failed with its error until its bytes change or it is retried: reading the same
		// bytes again gives the same failure.
		if mt := store.FormatTime(st.ModTime()); existing.Mtime != mt || existing.Size != size {
			existing.Mtime, existing.Size, existing.UpdatedAt = mt, size, nowS
			if err := store.UpdateDocument(ctx, tx, existing); err != nil {
				return nil, nil, err
			}
			if err := in.rerankOriginal(ctx, tx, existing, nowS); err != nil {
				return nil, nil, err
			}
		}
		res.Created, res.Message = false, MsgUnchanged
		if isStatus(existing, docstate.Failed) {
			e := errs.FromEnvelope(existing.LastError)
			res.Message = MsgUnchangedFailed
			return res, e.With("document_id", existing.DocumentID), in.describe(res, existing)
		}
		return res, nil, in.describe(res, existing)
	}
	same, err := store.DocumentsByHash(ctx, tx, hash)
	if err != nil {
		return nil, nil, err
	}
	for _, d := range same {
		// A registered document whose file is gone and whose bytes are these moved here. A
		// document that failed registration never moves: what failed it (the name, the size)
		// may not hold at the new path.
		if (have && d.DocumentID == existing.DocumentID) || d.PhaseRegister != "done" {
			continue
		}
		if _, statErr := os.Stat(d.Path); errors.Is(statErr, fs.ErrNotExist) {
			return res, nil, in.moveDocument(ctx, tx, d, existing, have, abs, st, nowS, res)
		}
	}
	doc := existing
	if !have {
		doc = store.Document{DocumentID: ids.Document("file:" + abs), Kind: "file", Path: abs, CreatedAt: nowS}
	}
	original, failedTwin := dedupCandidates(same, doc.DocumentID)
	if r.reread {
		failedTwin = nil
	}
	if have {
		// This document's content changes: what duplicated its old content is read on its own.
		if err := in.releaseDuplicates(ctx, tx, doc.DocumentID, nowS); err != nil {
			return nil, nil, err
		}
	}
	doc.EntityID = ids.Entity(typeDocument, doc.DocumentID)
	doc.PayloadID, doc.Title, doc.Mime, doc.Size, doc.Mtime, doc.ContentHash = payloadID, filepath.Base(abs), mime, size, store.FormatTime(st.ModTime()), hash
	doc.PhaseRegister, doc.LastError, doc.UpdatedAt, doc.DuplicateOf, doc.Pages = "done", nil, nowS, "", 0
	doc.PhaseAnalyze, doc.PhaseSemantic = "queued", "pending"
	event := docstate.FileRegistered
	res.Created, res.Message = true, MsgRegistered
	switch {
	case original != nil && originalFirst(doc, *original):
		// The same bytes are read at another path, but this file ranks before it (it is
		// older): it is read as the original, and once its analysis is written the other
		// becomes its duplicate (settleOriginals). Until then the other stays searchable.
	case original != nil: // the same bytes are already read at another path that still exists
		event, doc.DuplicateOf, doc.PhaseAnalyze, doc.PhaseSemantic = docstate.DuplicateRegistered, original.DocumentID, "skipped", "skipped"
		res.Created, res.Message = false, DuplicateMessage(original.Path)
	case failedTwin != nil: // the same bytes already failed to be read: reading them again fails the same way
		fileErr = copiedFailure(failedTwin, abs).With("document_id", doc.DocumentID)
		event, doc.PhaseAnalyze, doc.PhaseSemantic, doc.LastError = docstate.RegisterFailed, "failed", "skipped", errs.EnvelopeJSON(fileErr)
		res.Created, res.Message = false, FailedCopyMessage(failedTwin.Path)
	}
	if err := setStatus(&doc, event); err != nil {
		return nil, nil, err
	}
	if have {
		err = store.UpdateDocument(ctx, tx, doc)
	} else {
		_, err = store.InsertDocument(ctx, tx, doc)
	}
	if err != nil {
		return nil, nil, err
	}
	if err := store.CancelJobs(ctx, tx, doc.DocumentID, payloadID, errs.EnvelopeJSON(supersededErr()), nowS); err != nil {
		return nil, nil, err
	}
	if doc.PhaseAnalyze == "queued" {
		if err := store.EnqueueJob(ctx, tx, doc.DocumentID, payloadID, PhaseAnalyze, store.JobQueued, nowS); err != nil {
			return nil, nil, err
		}
	} else if have {
		if err := store.DeleteChunks(ctx, tx, doc.DocumentID); err != nil { // its old version's text is not this file's
			return nil, nil, err
		}
	}
	fields := map[string]any{"path": abs, "name": filepath.Base(abs), "size": size, "mime": mime, "format": kind, "sha256": hash,
		"mtime": store.FormatTime(st.ModTime()), "kind": "file"}
	if doc.DuplicateOf != "" {
		fields["duplicate_of"] = doc.DuplicateOf
	}
	pe := observation(in.docType(), doc.DocumentID, filepath.Base(abs), fields, 1, PriorityFile, "file:register", "register", contentID+"|"+abs,
		nowS, doc.DocumentID, map[string]any{"path": abs})
	if err := writeObserved(ctx, tx, payloadID, []PlannedEntity{pe}, nil, nowS); err != nil {
		return nil, nil, err
	}
	return res, fileErr, in.describe(res, doc)
}

// dedupCandidates picks, among the documents holding the same bytes (oldest first), the one a
// new file may be a duplicate of — a *different* document whose own analysis wrote its text
// (not itself a duplicate, not empty, not pending, not failed), the first by originalFirst
// when there are several — and, failing that, a
// different document whose analysis of these bytes failed, whose failure a copy shares. A
// document is never a duplicate of itself, of a document still waiting to be read, or of one
// that holds no text: the issue-12 bug was a failed document marked a duplicate of itself.
func dedupCandidates(same []store.Document, self string) (original, failedTwin *store.Document) {
	for i := range same {
		d := &same[i]
		if d.DocumentID == self || d.Path == "" {
			continue
		}
		switch {
		case isReadOriginal(*d):
			if original == nil || originalFirst(*d, *original) { // mid-settling, two may be read: the rule's choice
				original = d
			}
		case failedTwin == nil && StaysFailed(*d) && d.PhaseAnalyze == "failed":
			failedTwin = d
		}
	}
	if original != nil {
		return original, nil
	}
	return nil, failedTwin
}

// copiedFailure is twin's failure told of the file at abs: the same code, hint and cause,
// with the file's own name and path (the reader named the file it read) and the path of the
// file whose reading failed in details.same_content_as.
func copiedFailure(twin *store.Document, abs string) *errs.Error {
	e := errs.FromEnvelope(twin.LastError)
	if tb, nb := filepath.Base(twin.Path), filepath.Base(abs); tb != nb {
		e.Message = strings.ReplaceAll(e.Message, tb, nb)
	}
	details := make(map[string]any, len(e.Details)+2)
	for k, v := range e.Details {
		details[k] = v
	}
	e.Details = details
	if _, ok := details["path"]; ok {
		details["path"] = abs
	}
	details["same_content_as"] = twin.Path
	return e
}

// releaseDuplicates makes the documents that were duplicates of id read their own file: id no
// longer holds their content (it changed, failed or was removed), and a duplicate of nothing
// would be a document no search finds.
func (in *Ingester) releaseDuplicates(ctx context.Context, tx *store.Tx, id, now string) error {
	dups, err := store.DocumentsDuplicating(ctx, tx, id)
	if err != nil {
		return err
	}
	for _, d := range dups {
		if err := queueRead(ctx, tx, d, now); err != nil {
			return err
		}
	}
	return nil
}

// queueRead makes d, a duplicate, read its own file: it is registered again and its analysis
// queued. Once written, settleOriginals decides which of the readers of the same bytes stays
// the original.
func queueRead(ctx context.Context, tx *store.Tx, d store.Document, now string) error {
	if err := setStatus(&d, docstate.FileRegistered); err != nil {
		return err
	}
	d.DuplicateOf, d.PhaseAnalyze, d.PhaseSemantic, d.LastError, d.UpdatedAt = "", "queued", "pending", nil, now
	if err := store.UpdateDocument(ctx, tx, d); err != nil {
		return err
	}
	if err := store.CancelJobs(ctx, tx, d.DocumentID, d.PayloadID, errs.EnvelopeJSON(supersededErr()), now); err != nil {
		return err
	}
	return store.EnqueueJob(ctx, tx, d.DocumentID, d.PayloadID, PhaseAnalyze, store.JobQueued, now)
}

// PriorityFile is the source priority of what Strata reads from a file itself.
const PriorityFile = 40

func (in *Ingester) docType() *spec.EntityType { return in.Specs.EntityTypes[typeDocument] }

func (in *Ingester) describe(res *Result, d store.Document) error {
	res.DocumentID = d.DocumentID
	res.Phases = map[string]string{PhaseRegister: d.PhaseRegister, PhaseAnalyze: d.PhaseAnalyze, PhaseSemantic: d.PhaseSemantic}
	if d.EntityID != "" {
		res.EntityIDs = []string{d.EntityID}
		res.Entities = []EntityRef{{EntityID: d.EntityID, EntityType: typeDocument, Name: filepath.Base(d.Path)}}
	}
	return nil
}

// moveDocument handles a file whose bytes match a document whose old path is gone: the document
// keeps its ID, chunks and history, and only its path changes.
func (in *Ingester) moveDocument(ctx context.Context, tx *store.Tx, d, occupant store.Document, occupied bool, abs string, st os.FileInfo, now string, res *Result) error {
	if occupied { // a stale (removed or failed) document held this path: it gives the path up
		occupant.Path, occupant.UpdatedAt = "", now
		if err := in.releaseDuplicates(ctx, tx, occupant.DocumentID, now); err != nil {
			return err
		}
		if !isStatus(occupant, docstate.Removed) {
			if err := setStatus(&occupant, docstate.FileRemoved); err != nil {
				return err
			}
		}
		if err := store.UpdateDocument(ctx, tx, occupant); err != nil {
			return err
		}
	}
	old := d.Path
	d.Path, d.Mtime, d.UpdatedAt = abs, store.FormatTime(st.ModTime()), now
	if err := store.UpdateDocument(ctx, tx, d); err != nil {
		return err
	}
	if err := in.rerankOriginal(ctx, tx, d, now); err != nil { // its path and mtime rank it
		return err
	}
	pe := observation(in.docType(), d.DocumentID, filepath.Base(abs), map[string]any{"path": abs, "name": filepath.Base(abs), "previous_path": old},
		1, PriorityFile, "file:move", "move", d.PayloadID+"|"+abs+"|"+now, now, d.DocumentID, map[string]any{"path": abs})
	if err := writeObserved(ctx, tx, d.PayloadID, []PlannedEntity{pe}, nil, now); err != nil {
		return err
	}
	res.Created, res.Moved, res.Message, res.PayloadID = false, true, fmt.Sprintf("Moved: %s → %s (not extracted again)", old, abs), d.PayloadID
	return in.describe(res, d)
}

// failFile records a file that could not be registered as a failed document (so the library
// shows it with its error and hint, and its real size) and returns the error.
func (in *Ingester) failFile(ctx context.Context, abs string, f fileFailure) error {
	e := errs.As(f.err)
	now := store.FormatTime(in.Now())
	env := errs.EnvelopeJSON(e)
	var size int64
	var mtime string
	if f.st != nil {
		size, mtime = f.st.Size(), store.FormatTime(f.st.ModTime())
	}
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		d, err := store.DocumentByPath(ctx, tx, abs)
		switch {
		case errors.Is(err, store.ErrNotFound):
			d = store.Document{DocumentID: ids.Document("file:" + abs), Kind: "file", Path: abs,
				Title: filepath.Base(abs), Size: size, Mtime: mtime, ContentHash: f.hash, PhaseRegister: "failed", PhaseAnalyze: "skipped",
				PhaseSemantic: "skipped", LastError: env, CreatedAt: now, UpdatedAt: now}
			if err := setStatus(&d, docstate.RegisterFailed); err != nil {
				return err
			}
			_, err = store.InsertDocument(ctx, tx, d)
			return err
		case err != nil:
			return err
		}
		if err := setStatus(&d, docstate.RegisterFailed); err != nil {
			return err
		}
		d.PhaseRegister, d.PhaseAnalyze, d.PhaseSemantic, d.LastError, d.UpdatedAt = "failed", "skipped", "skipped", env, now
		d.Size, d.Mtime, d.ContentHash, d.DuplicateOf, d.Title = size, mtime, f.hash, "", filepath.Base(abs)
		if err := store.CancelJobs(ctx, tx, d.DocumentID, "", errs.EnvelopeJSON(supersededErr()), now); err != nil {
			return err
		}
		if err := in.releaseDuplicates(ctx, tx, d.DocumentID, now); err != nil {
			return err
		}
		if err := store.DeleteChunks(ctx, tx, d.DocumentID); err != nil {
			return err
		}
		return store.UpdateDocument(ctx, tx, d)
	})
	if err != nil {
		return errs.Wrap(errs.DBInsertFailed, err, "could not record the failure of %s", abs)
	}
	return e.With("document_id", ids.Document("file:"+abs))
}

// RemoveFile marks the document at path removed: its chunks leave the index; its observations
// and history stay.
func (in *Ingester) RemoveFile(ctx context.Context, path string) (string, error) {
	abs, _ := filepath.Abs(path)
	now := store.FormatTime(in.Now())
	var id string
	err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		d, err := store.DocumentByPath(ctx, tx, filepath.Clean(abs))
		if errors.Is(err, store.ErrNotFound) || (err == nil && isStatus(d, docstate.Removed)) {
			return nil
		}
		if err != nil {
			return err
		}
		id = d.DocumentID
		if err := setStatus(&d, docstate.FileRemoved); err != nil {
			return err
		}
		d.UpdatedAt = now
		if err := store.CancelJobs(ctx, tx, d.DocumentID, "", errs.EnvelopeJSON(supersededErr()), now); err != nil {
			return err
		}
		if err := in.releaseDuplicates(ctx, tx, d.DocumentID, now); err != nil {
			return err
		}
		if err := store.DeleteChunks(ctx, tx, d.DocumentID); err != nil {
			return err
		}
		return store.UpdateDocument(ctx, tx, d)
	})
	if err != nil {
		return "", errs.Wrap(errs.DBInsertFailed, err, "could not record the removal of %s", abs)
	}
	return id, nil
}

// hashFile streams the file through SHA-256 and keeps its first 4 KiB for sniffing.
func hashFile(ctx context.Context, path string, limit int64) (string, []byte, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil, 0, errs.New(errs.FileNotFound, "%s disappeared while being read", path).With("path", path)
		}
		return "", nil, 0, errs.Wrap(errs.FileUnreadable, unwrapPathErr(err), "cannot read %s", path).With("path", path).
			WithHint("check the file's permissions")
	}
	defer f.Close()
	h := sha256.New()
	head := make([]byte, 4096)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", nil, 0, errs.Wrap(errs.FileUnreadable, unwrapPathErr(err), "cannot read %s", path).With("path", path)
	}
	head = head[:n]
	h.Write(head)
	rest, err := io.Copy(h, io.LimitReader(ctxReader{ctx, f}, limit+1-int64(n)))
	if err != nil {
		return "", nil, 0, errs.Wrap(errs.FileUnreadable, unwrapPathErr(err), "cannot read %s", path).With("path", path)
	}
	if size := int64(n) + rest; size > limit {
		return "", nil, 0, errs.New(errs.FileTooLarge, "%s grew past the %d-byte limit while being read", path, limit).With("path", path)
	}
	return hex.EncodeToString(h.Sum(nil)), head, int64(n) + rest, nil
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
