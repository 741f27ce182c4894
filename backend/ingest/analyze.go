package ingest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/extract"
	"github.com/strata-app/strata/backend/heuristics"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/store"
)

// errSuperseded means the document moved on to a newer version (or was removed) while its job
// ran; the job is retired as skipped and its results are dropped.
var errSuperseded = errors.New("superseded by a newer version")

// Analysis is what phase 2 found for one job, ready to be written.
type Analysis struct {
	Job      store.Job
	Title    string
	Mime     string
	Pages    int
	DocType  string
	Tags     []string
	Chunks   []store.Chunk
	Vectors  [][]float32
	Entities []PlannedEntity
	Rels     []store.Relationship
}

// Analyze is phase 2 for one job: read the file, check it is still the registered version,
// extract text with structure, chunk it and find facts — all outside any transaction. The
// runner writes the analyses of a batch of jobs together (WriteAnalyses), so a crash at any
// point leaves either the old state or the new one.
func (in *Ingester) Analyze(ctx context.Context, job store.Job) (*Analysis, error) {
	rq := in.DB.Reader()
	doc, err := store.GetDocument(ctx, rq, job.DocumentID)
	if err != nil {
		return nil, fmt.Errorf("analyze %s: %w", job.DocumentID, err)
	}
	now := store.FormatTime(in.Now())
	if doc.PayloadID != job.PayloadID || !can(doc, docstate.AnalysisDone) {
		return nil, errSuperseded
	}
	pay, err := store.GetPayload(ctx, rq, job.PayloadID)
	if err != nil {
		return nil, fmt.Errorf("analyze %s: payload: %w", job.DocumentID, err)
	}
	data, err := os.ReadFile(doc.Path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errs.New(errs.FileNotFound, "%s was deleted before it could be analysed", doc.Path).With("path", doc.Path)
		}
		return nil, errs.Wrap(errs.FileUnreadable, unwrapPathErr(err), "cannot read %s", doc.Path).With("path", doc.Path).
			WithHint("check the file's permissions, then retry")
	}
	sum := sha256.Sum256(data)
	if !strings.Contains(string(pay.Body), hex.EncodeToString(sum[:])) {
		// The file changed after it was registered: register the new bytes, retire this job.
		if _, err := in.RegisterFile(ctx, doc.Path, map[string]any{"source": "file:changed"}); err != nil && errs.As(err).Code == errs.Internal {
			return nil, err
		}
		return nil, errSuperseded
	}
	d, err := in.readBounded(ctx, data, doc.Path)
	if err != nil {
		return nil, err
	}
	spans := extract.ChunkDocument(d, extract.ChunkOptions{})
	chunks := make([]store.Chunk, len(spans))
	for i, s := range spans {
		chunks[i] = store.Chunk{ChunkID: ids.Chunk(doc.DocumentID, i, ids.Hash(s.Text)), DocumentID: doc.DocumentID, Ordinal: i, Text: s.Text,
			Heading: s.Heading, ByteStart: s.ByteStart, ByteEnd: s.ByteEnd, LineStart: s.LineStart, LineEnd: s.LineEnd, Page: s.Page,
			TextStart: s.TextStart, TextEnd: s.TextEnd, Lines: s.Lines}
	}
	// The chunks are embedded while the facts are found: the two only read the document, and
	// for one big file (a watched file's latency) they were a third of its analysis, one
	// after the other. The goroutine is always awaited below.
	type embedded struct {
		vecs [][]float32
		err  error
	}
	emb := make(chan embedded, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil { // as handle recovers a panic of the job's own goroutine
				emb <- embedded{nil, errs.New(errs.AnalysisFailed, "embedding %s crashed: %v", filepath.Base(doc.Path), p).
					WithHint("this is a bug worth reporting with the file")}
			}
		}()
		vecs, err := in.embedChunks(ctx, chunks)
		emb <- embedded{vecs, err}
	}()
	title := strings.TrimSpace(d.Title)
	if title == "" && strings.TrimSpace(d.Text) != "" && (d.Kind == "pdf" || d.Kind == "docx" || d.Kind == "text") {
		// Prose without a declared title: a line that stands as a heading, else the file name.
		title = heuristics.Title(d.Kind, d.Text)
	}
	if title == "" {
		title = filepath.Base(doc.Path)
	}
	entities, rels, docType, tags := in.observeContent(doc, pay.PayloadContentID, d, title, now)
	em := <-emb
	if em.err != nil {
		return nil, em.err
	}
	vecs := em.vecs
	return &Analysis{Job: job, Title: title, Mime: d.Mime, Pages: len(d.Pages), DocType: docType, Tags: tags, Chunks: chunks, Vectors: vecs, Entities: entities, Rels: rels}, nil
}

// DefaultReadTimeout bounds how long one file's reader may run.
const DefaultReadTimeout = 2 * time.Minute

// readBounded runs the format reader with a time limit. Readers honour ctx between pages, but
// a third-party parser can loop inside one call (the PDF library has such a case); then the
// reader's goroutine is abandoned — it cannot be stopped from outside — and the file fails
// with ANALYSIS_FAILED instead of holding a worker forever.
func (in *Ingester) readBounded(ctx context.Context, data []byte, path string) (*extract.Document, error) {
	limit := in.ReadTimeout
	if limit <= 0 {
		limit = DefaultReadTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	type result struct {
		d   *extract.Document
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned reader can still finish and exit
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{nil, errs.New(errs.AnalysisFailed, "the reader crashed on %s", filepath.Base(path)).
					WithHint("the file may be damaged; this is worth reporting with the file")}
			}
		}()
		d, err := extract.Read(ctx, data, path, extract.Limits{MaxBytes: in.maxFileBytes()})
		done <- result{d, err}
	}()
	select {
	case r := <-done:
		return r.d, r.err
	case <-ctx.Done():
		return nil, errs.New(errs.AnalysisFailed, "reading %s took longer than %v", filepath.Base(path), limit).With("path", path).
			WithHint("the file may be malformed; if it is valid, report it with the file")
	}
}

// WriteAnalyses stores a batch of analyses in the caller's transaction: each job is completed
// only if its lease is still held and its document is still at that version (otherwise the
// job is retired as superseded and its results dropped); then the chunks, documents,
// observations and relationships of all of them are written with one multi-row statement per
// table, so a batch costs one full-text flush and one update per shared entity.
func (in *Ingester) WriteAnalyses(ctx context.Context, tx *store.Tx, list []*Analysis) error {
	now := store.FormatTime(in.Now())
	var docs []store.Document
	var chunks []store.Chunk
	var vecs [][]float32
	var entities []PlannedEntity
	var rels []store.Relationship
	for _, a := range list {
		cur, err := store.GetDocument(ctx, tx, a.Job.DocumentID)
		if err != nil {
			return err
		}
		if cur.PayloadID != a.Job.PayloadID || !can(cur, docstate.AnalysisDone) {
			err := store.FinishJob(ctx, tx, a.Job.JobID, a.Job.LeaseOwner, store.JobSkipped, errs.EnvelopeJSON(supersededErr()), now, now)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			continue
		}
		err = store.FinishJob(ctx, tx, a.Job.JobID, a.Job.LeaseOwner, store.JobDone, nil, now, now)
		if errors.Is(err, store.ErrNotFound) {
			continue // another worker holds the job now: it writes, not us
		}
		if err != nil {
			return err
		}
		cur.Title, cur.Mime, cur.Pages, cur.LastError, cur.UpdatedAt = a.Title, a.Mime, a.Pages, nil, now
		cur.DocType, cur.Tags = a.DocType, a.Tags
		if err := setStatus(&cur, docstate.AnalysisDone); err != nil {
			return err
		}
		cur.PhaseAnalyze, cur.PhaseSemantic = "done", "skipped"
		if len(a.Chunks) == 0 {
			cur.PhaseAnalyze = "skipped" // an empty file: registered, nothing to index
		} else if in.Specs.SemanticFor(a.DocType) != nil {
			cur.PhaseSemantic = "queued"
		}
		docs = append(docs, cur)
		chunks = append(chunks, a.Chunks...)
		if len(a.Vectors) == len(a.Chunks) {
			vecs = append(vecs, a.Vectors...)
		} else {
			vecs = append(vecs, make([][]float32, len(a.Chunks))...) // keep alignment; nil vectors are skipped
		}
		for _, pe := range a.Entities {
			pe.Observation.SourcePayloadID = a.Job.PayloadID
			entities = append(entities, pe)
		}
		for _, r := range a.Rels {
			r.SourcePayloadID = a.Job.PayloadID
			rels = append(rels, r)
		}
	}
	if len(docs) == 0 {
		return nil
	}
	for _, d := range docs {
		if err := store.DeleteChunks(ctx, tx, d.DocumentID); err != nil {
			return err
		}
	}
	if err := store.InsertChunks(ctx, tx, chunks); err != nil {
		return err
	}
	if err := in.writeVectors(ctx, tx, chunks, vecs); err != nil {
		return err
	}
	for _, d := range docs {
		if err := store.UpdateDocument(ctx, tx, d); err != nil {
			return err
		}
		// Semantic extraction runs when a spec matches the document's type; without one the
		// phase is skipped.
		state := store.JobSkipped
		if d.PhaseSemantic == "queued" {
			state = store.JobQueued
		}
		if err := store.EnqueueJob(ctx, tx, d.DocumentID, d.PayloadID, PhaseSemantic, state, now); err != nil {
			return err
		}
	}
	if err := writeObserved(ctx, tx, "", entities, rels, now); err != nil {
		return err
	}
	return in.settleOriginals(ctx, tx, docs, now)
}

func supersededErr() *errs.Error {
	return errs.New(errs.Superseded, "a newer version of the file replaced this one")
}

// observeContent turns what phase 2 found into observations: one on the document (title, type,
// format, facts found, each with its location) and entities for e-mail addresses (contacts)
// (contacts), which the document REFERS_TO, and its tags as fields (enrich.TagConceptBridger
// turns them into concepts).
func (in *Ingester) observeContent(doc store.Document, contentID string, d *extract.Document, title, now string) ([]PlannedEntity, []store.Relationship, string, []string) {
	// Facts cite the file's lines: through the source map where the reader rewrote the file
	// (HTML, Markdown), else by counting the text's lines once.
	lines := lineIndex(d.Text)
	lineOf := lines.line
	if d.Source != nil {
		lineOf = d.SourceLine
	}
	findings := heuristics.FindDocument(d)
	docType := heuristics.DocType(d.Kind, title, d.Text)
	generated := in.Generated != nil && in.Generated(doc.Path)
	if generated {
		// What Strata wrote itself is read for search only: no semantic phase (its type
		// matches no spec), no facts or people from what it quotes (a lint report quotes the
		// amounts it found elsewhere; they are not the report's).
		docType = store.DocTypeGenerated
		findings = nil
	}
	fields := map[string]any{"title": title, "doc_type": docType, "format": d.Kind, "mime": d.Mime, "chars": len(d.Text)}
	if d.Language != "" {
		fields["language"] = d.Language
	}
	if len(d.Pages) > 0 {
		fields["pages"] = len(d.Pages)
	}
	var located []any
	facts := map[string][]any{}
	tags := map[string]int{} // tag → byte offset of first mention (-1: front matter)
	emails := map[string]int{}
	type nameAt struct {
		name string
		at   int
	}
	names := map[string]nameAt{} // the name written beside an address, where first found
	for _, t := range d.Tags {
		if t = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(t), "#")); t != "" {
			tags[t] = -1
		}
	}
	for _, f := range findings {
		loc := map[string]any{"kind": f.Kind, "value": f.Value, "byte_start": f.ByteStart, "byte_end": f.ByteEnd, "line": lineOf(f.ByteStart)}
		if p := pageOf(d, f.ByteStart); p > 0 {
			loc["page"] = p
		}
		located = append(located, loc)
		switch f.Kind {
		case "hashtag":
			if _, ok := tags[f.Value]; !ok {
				tags[f.Value] = f.ByteStart
			}
		case "email":
			// Only a personal address makes a person; a role address (support@) stays a fact.
			if _, ok := emails[f.Value]; !ok && heuristics.Address(f.Value) == heuristics.AddressPersonal {
				emails[f.Value] = f.ByteStart
			}
			if _, person := emails[f.Value]; person {
				if _, named := names[f.Value]; !named {
					if n := heuristics.NameBeside(d.Text, f.ByteStart, f.ByteEnd); n != "" {
						names[f.Value] = nameAt{n, f.ByteStart}
					}
				}
			}
			facts["emails"] = append(facts["emails"], f.Value)
		case "date":
			facts["dates"] = append(facts["dates"], f.Value)
		case "money":
			facts["amounts"] = append(facts["amounts"], map[string]any{"amount": f.Amount, "currency": f.Currency})
		case "url":
			facts["urls"] = append(facts["urls"], f.Value)
		}
	}
	for k, v := range facts {
		fields[k] = ids.SortedSet(v)
	}
	var tagList []any
	for t := range tags {
		tagList = append(tagList, t)
	}
	if len(tagList) > 0 {
		fields["tags"] = ids.SortedSet(tagList)
	}
	for k, v := range d.Meta {
		if _, taken := fields[k]; !taken && k != "tags" {
			fields["meta_"+k] = ids.Normalize(v)
		}
	}
	// Observation IDs are per version of the file *and* per document: two files with the same
	// bytes share a payload, but each is a source of its own, and one ID seen twice (with two
	// times) made the entity's history list one observation twice.
	version := contentID + ":" + doc.DocumentID
	docEnt := observation(in.docType(), doc.DocumentID, title, fields, 1, PriorityFile, "file:analyze", "analyze", version, now, doc.DocumentID,
		map[string]any{"path": doc.Path, "findings": located})
	out := []PlannedEntity{docEnt}
	var rels []store.Relationship
	link := func(pe PlannedEntity) {
		out = append(out, pe)
		rels = append(rels, store.Relationship{ID: ids.Relationship("REFERS_TO", docEnt.Entity.EntityID, pe.Entity.EntityID), RelationshipType: "REFERS_TO",
			SourceEntityID: docEnt.Entity.EntityID, TargetEntityID: pe.Entity.EntityID})
	}
	span := func(off int) map[string]any {
		if off < 0 {
			return map[string]any{"path": doc.Path, "front_matter": true}
		}
		m := map[string]any{"path": doc.Path, "line": lineOf(off), "byte_start": off}
		if p := pageOf(d, off); p > 0 {
			m["page"] = p
		}
		return m
	}
	// Tags and hashtags stay what the source says (the observation's "tags" field and, for a
	// hashtag, its finding with its line): the TagConceptBridger enrichment makes concepts of
	// them, resolving their spellings to one entity across documents.
	if contact, ok := in.Specs.EntityTypes["person"]; ok && !generated {
		for _, e := range sortedKeys(emails) {
			// The person is the address (its key); the name beside it, when the text writes one
			// ("Daniel Stenberg <daniel@haxx.se>"), names them and is a field of its own, cited
			// where it stands.
			title, fields, at := e, map[string]any{"email": e}, emails[e]
			if n, ok := names[e]; ok {
				title, fields["name"], at = n.name, n.name, n.at
			}
			link(observation(contact, e, title, fields, 0.5, PriorityFile, "file:analyze", "email:"+e, version, now, doc.DocumentID, span(at)))
		}
	}
	return out, rels, docType, sortedKeys(tags)
}

func pageOf(d *extract.Document, off int) int {
	for _, p := range d.Pages {
		if off >= p.ByteStart && off < p.ByteEnd {
			return p.Page
		}
	}
	return 0
}

// lineIdx holds the byte offset where each line of a text starts, so the line of each of a
// document's facts is a binary search, not a count from the start.
type lineIdx []int

func lineIndex(text string) lineIdx {
	idx := lineIdx{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// line is the 1-based line holding byte offset off.
func (l lineIdx) line(off int) int { return sort.SearchInts(l, off+1) }
