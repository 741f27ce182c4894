package enrich

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/ingest/observe"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// Mention sources (entity_mentions.source).
const (
	SourceTag     = "tag"     // a tag the source declares (front matter, a content ingest's tags)
	SourceHashtag = "hashtag" // a trailing #tag in the text
	SourceKeyword = "keyword" // front-matter or HTML meta keywords/categories
	SourceHeading = "heading" // a term of a heading the chunk sits under
	SourceText    = "text"    // a known concept's name in the chunk's text
	SourceEmail   = "email"   // a person's address in the chunk's text
)

// sharedTouched is the Run.Shared key under which TagConceptBridger leaves the entities whose
// mentions its run changed (before and after), for CoOccurrence.
const sharedTouched = "concepts.touched"

type conceptSettings struct {
	TagScore         float64             `json:"tag_score"`
	HeadingScore     float64             `json:"heading_score"`
	Headings         bool                `json:"headings"`
	TextMentions     bool                `json:"text_mentions"`
	MaxWords         int                 `json:"max_words"`
	MaxEvidence      int                 `json:"max_evidence"`
	Generic          []string            `json:"generic"`
	PluralExceptions []string            `json:"plural_exceptions"`
	Aliases          map[string][]string `json:"aliases"`
	// A heading names a topic only if the document's own prose names it this many times.
	MinProseMentions int `json:"min_prose_mentions"`
	// A heading term that at least structure_share of a folder's documents carry (and at least
	// series_min_shared of them), in a folder of at least series_min_documents documents with
	// headings, is the series' structure.
	SeriesMinDocuments int     `json:"series_min_documents"`
	SeriesMinShared    int     `json:"series_min_shared"`
	StructureShare     float64 `json:"structure_share"`
	// Bounds per document: concepts from headings, declared ones, heading terms counted for the
	// series (and MaxDocChunks, the chunks linking reads).
	MaxHeadingConcepts  int `json:"max_heading_concepts"`
	MaxDeclared         int `json:"max_declared"`
	MaxHeadingTermsSeen int `json:"max_heading_terms"`
}

// TagConceptBridger turns what a document declares (tags, trailing #hashtags, front-matter or
// meta keywords) and the topics its headings name into concept entities the document
// REFERS_TO (derived), and records where each concept — and each person whose address the
// text holds — is mentioned, chunk by chunk (entity_mentions), for CoOccurrence.
//
// A heading is a topic only when it is not the document's furniture: the document's own prose
// names it (min_prose_mentions: "## Attendance" over a list of names, "## Links" over URLs, a
// date, are labels), and it is not a section most documents of its folder carry (the series'
// structure: "Present", "Agenda", "Announcements", "Q&A" in a folder of minutes), which is
// learnt from the folder's own heading counts (heading_terms, migration 0018). When a term
// crosses that share, the documents of the folder carrying it are enriched again, so the
// result does not depend on the order files arrive in. Declared tags, keywords and hashtags
// are the author's own word and stay concepts.
//
// Spellings resolve to one concept by a key computed from the spelling alone (case,
// punctuation and the head noun's plural dropped, declared aliases applied), never by
// similarity; the concept's display name is that key, so the entity's ID and name are the
// same whichever document arrives first.
//
// Work per document is bounded (max_heading_concepts, max_declared, max_mentions …, the best
// by evidence), and what the whole store shares — which concepts are known, so that text
// naming them is a mention — is read once per group and kept counted (concept_bridges).
type TagConceptBridger struct {
	settings conceptSettings
	names    *conceptNames
	concept  *spec.EntityType
}

func (x *TagConceptBridger) useSpecs(reg *spec.Registry) { x.concept = reg.EntityTypes["concept"] }

// Name implements Enrichment.
func (x *TagConceptBridger) Name() string { return "TagConceptBridger" }

// Version implements Enrichment.
func (x *TagConceptBridger) Version() string { return "2" }

// ReactsTo implements Enrichment.
func (x *TagConceptBridger) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, DocumentRemoved}
}

// Configure implements Enrichment. The defaults are those of specs/enrichments.yaml (which says
// where each comes from); they are repeated here so the type works without the file.
func (x *TagConceptBridger) Configure(params map[string]any) error {
	x.settings = conceptSettings{TagScore: 1, HeadingScore: 0.6, Headings: true, TextMentions: true, MaxWords: 3, MaxEvidence: 3,
		Generic: defaultGeneric, PluralExceptions: defaultPluralExceptions,
		MinProseMentions: 1, SeriesMinDocuments: 4, SeriesMinShared: 3, StructureShare: 0.4,
		MaxHeadingConcepts: 12, MaxDeclared: 32, MaxHeadingTermsSeen: 64}
	if err := DecodeParams(params, &x.settings); err != nil {
		return err
	}
	s := x.settings
	switch {
	case s.TagScore <= 0 || s.TagScore > 1:
		return &ParamError{Param: "tag_score", Problem: "must be in (0, 1]"}
	case s.HeadingScore <= 0 || s.HeadingScore > 1:
		return &ParamError{Param: "heading_score", Problem: "must be in (0, 1]"}
	case s.MaxWords < 1 || s.MaxWords > 6:
		return &ParamError{Param: "max_words", Problem: "must be 1–6"}
	case s.MaxEvidence < 1:
		return &ParamError{Param: "max_evidence", Problem: "must be at least 1"}
	case s.MinProseMentions < 0:
		return &ParamError{Param: "min_prose_mentions", Problem: "must not be negative"}
	case s.SeriesMinDocuments < 2:
		return &ParamError{Param: "series_min_documents", Problem: "must be at least 2"}
	case s.SeriesMinShared < 2:
		return &ParamError{Param: "series_min_shared", Problem: "must be at least 2"}
	case s.StructureShare <= 0 || s.StructureShare > 1:
		return &ParamError{Param: "structure_share", Problem: "must be in (0, 1]"}
	case s.MaxHeadingConcepts < 0 || s.MaxDeclared < 0:
		return &ParamError{Param: "max_heading_concepts", Problem: "max_heading_concepts and max_declared must not be negative"}
	case s.MaxHeadingTermsSeen < 1:
		return &ParamError{Param: "max_heading_terms", Problem: "must be at least 1"}
	}
	x.names = newConceptNames(s)
	return nil
}

// defaultGeneric: headings that name no topic in any kind of document (heading rule 6). What a
// series of documents repeats as its sections is learnt per folder instead (structure_share).
var defaultGeneric = []string{"introduction", "summary", "overview", "conclusion", "example", "option", "note", "see also",
	"description", "usage", "synopsis", "constant", "api", "class", "method", "property", "event", "error", "background", "detail",
	"caveat", "consideration", "appendix", "keyword", "misc", "general", "basic", "getting started", "installation", "setup",
	"configuration", "faq", "reference", "index", "content", "foreword", "preface", "acknowledgment", "author", "bug", "copyright",
	"license", "history", "change", "changelog", "todo", "next step", "exit status", "return value"}

var defaultPluralExceptions = []string{"windows", "news", "series", "species", "class", "status", "analysis", "basis", "axis",
	"process", "access", "address", "always", "perhaps", "various", "previous", "its", "this", "has", "was", "does", "is", "as", "us"}

// term is one concept found in the document, with where.
type term struct {
	key      string
	explicit bool           // a tag or keyword: the source says so (score tag_score)
	spells   map[string]int // spellings as written → times
	evidence []Evidence
	mentions map[int]string // chunk ordinal (-1: the document) → source
	prose    int            // chunks whose prose names it (a heading term's topicality)
	first    int            // the first chunk naming it in a heading (a heading term's rank)
}

// Keys the group shares between the concepts' runs and their Finish.
const (
	deferKnown     = "concepts.known"     // concepts a run made known to the store
	deferForgotten = "concepts.forgotten" // concepts a run left without any bridging mention
	cacheVocab     = "vocabulary"         // key → entity ID of every known concept
)

// Enrich implements Enrichment.
func (x *TagConceptBridger) Enrich(ctx context.Context, run *Run) error {
	d := run.Doc
	before, err := store.MentionsIn(ctx, run.Tx, d.DocumentID)
	if err != nil {
		return err
	}
	touched := map[string]bool{}
	for _, m := range before {
		touched[m.EntityID] = true
	}
	// The store's known concepts are read before this document's rows go, so a concept only
	// it makes known is known to the group's later runs too.
	vocab, err := x.vocabulary(ctx, run)
	if err != nil {
		return err
	}
	if _, err := store.DeleteMentions(ctx, run.Tx, d.DocumentID); err != nil {
		return err
	}
	var links []store.DerivedLink
	var after []store.Mention
	var series seriesTerms
	// A document Strata wrote itself (an answer, a lint report) names no concept of its own:
	// its headings are the report's, not the user's.
	if run.Live && d.DocType != store.DocTypeGenerated {
		links, after, series, err = x.derive(ctx, run, vocab)
		if err != nil {
			return err
		}
	}
	if err := x.updateSeries(ctx, run, series); err != nil {
		return err
	}
	if err := store.InsertMentions(ctx, run.Tx, after); err != nil {
		return err
	}
	for _, m := range after {
		touched[m.EntityID] = true
	}
	list := sortedKeys(touched)
	if run.Shared != nil {
		run.Shared[sharedTouched] = list
	}
	run.Defer(DeferMentions, list...)
	if d.EntityID == "" {
		return nil
	}
	// A concept is known while a document refers to it (concept_bridges counts the REFERS_TO
	// links). Which ones this document alone made known, or left unknown: read once its links
	// are replaced. Those it referred to may already be gone (a document that left had them
	// retracted with its evidence), so its old concept mentions say which it had.
	refersBefore, err := store.DerivedTargets(ctx, run.Tx, d.EntityID, x.Name(), TypeRefersTo)
	if err != nil {
		return err
	}
	was := maps.Clone(refersBefore)
	for _, m := range before {
		if m.Source != SourceEmail {
			was[m.EntityID] = true
		}
	}
	if err := run.Replace(ctx, store.LinkScope{Types: []string{TypeRefersTo}, SourceIn: []string{d.EntityID}}, links); err != nil {
		return err
	}
	is := map[string]bool{}
	for _, l := range links {
		is[l.TargetEntityID] = true
	}
	keyOf := map[string]string{}
	for k, id := range vocab.own {
		keyOf[id] = k
		vocab.known[k] = id // known now: the group's later runs see it
	}
	cands := map[string]bool{}
	for id := range was {
		cands[id] = true
	}
	for id := range is {
		cands[id] = true
	}
	counts, err := store.BridgeCounts(ctx, run.Tx, sortedKeys(cands))
	if err != nil {
		return err
	}
	for _, id := range sortedKeys(cands) {
		switch {
		case is[id] && counts[id] == 1 && !refersBefore[id]:
			run.Defer(deferKnown, id+"\x00"+keyOf[id])
		case !is[id] && counts[id] == 0:
			run.Defer(deferForgotten, id)
			for k, kid := range vocab.known {
				if kid == id {
					delete(vocab.known, k)
				}
			}
		}
	}
	return nil
}

// vocab is the store's known concepts (key → entity ID), read once per group and kept up to
// date by the group's own runs, and the concepts of the run being derived.
type vocab struct {
	known map[string]string
	own   map[string]string
}

func (x *TagConceptBridger) vocabulary(ctx context.Context, run *Run) (*vocab, error) {
	c := run.Cache(cacheVocab)
	if v, ok := c["v"].(*vocab); ok {
		v.own = map[string]string{}
		return v, nil
	}
	known, err := store.KnownConcepts(ctx, run.Tx)
	if err != nil {
		return nil, err
	}
	v := &vocab{known: known, own: map[string]string{}}
	c["v"] = v
	return v, nil
}

// Finish implements Finisher: a concept the group made known to the store is looked for in the
// text of the other documents (FTS5 finds candidate chunks, the key rule confirms); one no
// document makes known any more loses its text mentions.
func (x *TagConceptBridger) Finish(ctx context.Context, f *Finish) error {
	if !x.settings.TextMentions {
		return nil
	}
	forgotten := f.Deferred(deferForgotten)
	counts, err := store.BridgeCounts(ctx, f.Tx, forgotten)
	if err != nil {
		return err
	}
	for _, id := range forgotten {
		if counts[id] > 0 {
			continue // another document of the group made it known again
		}
		if err := store.DeleteMentionsBySource(ctx, f.Tx, id, SourceText); err != nil {
			return err
		}
		f.Defer(DeferMentions, id)
	}
	for _, pair := range f.Deferred(deferKnown) {
		id, key, _ := strings.Cut(pair, "\x00")
		if key == "" {
			continue
		}
		if n, err := store.BridgeCounts(ctx, f.Tx, []string{id}); err != nil {
			return err
		} else if n[id] == 0 {
			continue // forgotten again within the group
		}
		added, err := x.findInOthers(ctx, f, id, key)
		if err != nil {
			return err
		}
		if added > 0 {
			f.Defer(DeferMentions, id)
		}
	}
	return nil
}

// findInOthers records the text mentions of a newly known concept wherever the store's text
// names it: FTS5 finds candidate chunks (it stems, so it finds at least the exact matches),
// textHas confirms. A chunk whose heading already named it there becomes a text mention (the
// text says it, as a document's own run decides). It returns how many rows it wrote.
func (x *TagConceptBridger) findInOthers(ctx context.Context, f *Finish, id, key string) (int, error) {
	spellings := []string{key}
	for a, c := range x.names.aliases {
		if c == key {
			spellings = append(spellings, a)
		}
	}
	sort.Strings(spellings)
	seen := map[string]bool{}
	var cands []store.Mention
	for _, sp := range spellings {
		found, err := store.PhraseChunks(ctx, f.Tx, `text : "`+sp+`"`, "")
		if err != nil {
			return 0, err
		}
		for _, c := range found {
			if k := fmt.Sprintf("%s\x00%d", c.DocumentID, c.Ordinal); !seen[k] {
				seen[k] = true
				cands = append(cands, c)
			}
		}
	}
	// A document's own run reads its first MaxDocChunks chunks for mentions; so does
	// this, or the store would depend on which came first.
	var rows []store.Mention
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if c.Ordinal >= MaxDocChunks {
			continue
		}
		ch, err := store.ChunkAt(ctx, f.Tx, c.DocumentID, c.Ordinal)
		if err != nil {
			return 0, err
		}
		if x.textHas(ch.Text, key) {
			rows = append(rows, store.Mention{EntityID: id, DocumentID: c.DocumentID, Ordinal: c.Ordinal, Source: SourceText, Passage: store.PassageOf(ch.Text)})
		}
	}
	if err := store.UpgradeToText(ctx, f.Tx, rows, SourceHeading); err != nil {
		return 0, err
	}
	return len(rows), nil
}

func (x *TagConceptBridger) textHas(text, key string) bool {
	keys := []string{key}
	for a, c := range x.names.aliases {
		if c == key {
			keys = append(keys, a)
		}
	}
	for _, k := range keys {
		n := len(strings.Fields(k))
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "#") {
				continue
			}
			ws := words(line)
			for i := 0; i+n <= len(ws); i++ {
				if ws[i+n-1] == "" {
					continue
				}
				run := append(append([]string{}, ws[i:i+n-1]...), x.names.singular(ws[i+n-1]))
				if strings.Join(run, " ") == k {
					return true
				}
			}
		}
	}
	return false
}

// docObservation reads the observation the analysis (or a content ingest) wrote on the
// document for its current version: what the source declared (tags, meta) and where
// (findings with their lines).
func docObservation(ctx context.Context, q store.Q, d store.Document) (store.Observation, string, error) {
	if d.PayloadID == "" || d.EntityID == "" {
		return store.Observation{}, "", store.ErrNotFound
	}
	p, err := store.GetPayload(ctx, q, d.PayloadID)
	if err != nil {
		return store.Observation{}, "", err
	}
	version := p.PayloadContentID + ":" + d.DocumentID
	for _, id := range []string{ids.Observation(d.EntityID, version, "analyze"), ids.Observation(d.EntityID, p.PayloadContentID, "document")} {
		o, err := store.GetObservation(ctx, q, d.EntityID, id)
		if err == nil {
			return o, version, nil
		}
		if !errors.Is(err, store.ErrNotFound) {
			return o, "", err
		}
	}
	return store.Observation{}, version, store.ErrNotFound
}

type finding struct {
	Kind      string `json:"kind"`
	Value     string `json:"value"`
	ByteStart int    `json:"byte_start"`
	Line      int    `json:"line"`
	Page      int    `json:"page"`
}

// metaList reads a front-matter or meta value as a list of names ("a, b" or [a, b]).
func metaList(raw json.RawMessage) []string {
	var list []any
	if json.Unmarshal(raw, &list) != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		for _, p := range strings.Split(s, ",") {
			list = append(list, p)
		}
	}
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

// seriesTerms is a document's heading terms by folder, for the series' structure.
type seriesTerms struct {
	folder string
	terms  []string
}

// chunkAt finds the chunk holding a byte offset of the document's text (chunks by ordinal,
// their spans increasing).
func chunkAt(chunks []store.Chunk, off int) (store.Chunk, bool) {
	i := sort.Search(len(chunks), func(i int) bool { return chunks[i].TextEnd > off })
	if i < len(chunks) && off >= chunks[i].TextStart && off < chunks[i].TextEnd {
		return chunks[i], true
	}
	return store.Chunk{}, false
}

// conceptPrep is a document's chunks and what each one's prose names (heading lines left out):
// a heading term's topicality, and the text mentions of known concepts.
type conceptPrep struct {
	chunks []store.Chunk
	prose  []map[string]int
}

// Prepare implements Preparer: the document's chunks and their text keys.
func (x *TagConceptBridger) Prepare(ctx context.Context, p *Prep) (any, error) {
	if p.Doc.DocType == store.DocTypeGenerated {
		return nil, nil
	}
	return x.prepare(ctx, p.Q, p.Doc.DocumentID, p.Shared)
}

func (x *TagConceptBridger) prepare(ctx context.Context, q store.Q, doc string, shared map[string]any) (*conceptPrep, error) {
	chunks, ok := shared[sharedChunks].([]store.Chunk)
	if !ok {
		var err error
		if chunks, err = store.FirstChunksOf(ctx, q, doc, MaxDocChunks); err != nil {
			return nil, err
		}
		if shared != nil {
			shared[sharedChunks] = chunks
		}
	}
	prose := make([]map[string]int, len(chunks))
	for i, c := range chunks {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		prose[i] = x.names.textKeys(c.Text, x.settings.MaxWords)
	}
	return &conceptPrep{chunks: chunks, prose: prose}, nil
}

// maxKeywordWords bounds a declared keyword: a longer one is a sentence or a title.
const maxKeywordWords = 6

// declaredKeyword reports whether kw, from a page's keywords or categories, is one a person
// declared. Site generators fill the keywords with the page's title or description ("Types
// (libfoo: the portable foo library)" on every page of a manual): that declares nothing.
func declaredKeyword(kw, title string, description json.RawMessage) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	k := norm(kw)
	if k == "" || k == norm(title) || len(strings.Fields(k)) > maxKeywordWords {
		return false
	}
	var desc string
	if json.Unmarshal(description, &desc) == nil && k == norm(desc) {
		return false
	}
	return true
}

// derive computes the document's concepts, its REFERS_TO links, its mention rows and its
// heading terms (for the folder's series).
func (x *TagConceptBridger) derive(ctx context.Context, run *Run, v *vocab) ([]store.DerivedLink, []store.Mention, seriesTerms, error) {
	d := run.Doc
	var series seriesTerms
	cp, ok := run.Prepared.(*conceptPrep)
	if !ok {
		var err error
		if cp, err = x.prepare(ctx, run.Tx, d.DocumentID, nil); err != nil {
			return nil, nil, series, err
		}
	}
	chunks, prose := cp.chunks, cp.prose
	if run.Shared != nil {
		run.Shared[sharedChunks] = chunks // DiscoveryGap reads the same
	}
	terms := map[string]*term{}
	declared := 0
	add := func(spelling string, explicit bool, ord int, source string, ev Evidence) *term {
		k := x.names.key(spelling)
		if k == "" || !hasLetter(k) {
			return nil
		}
		t := terms[k]
		if t == nil {
			if explicit {
				if declared >= x.settings.MaxDeclared {
					return nil // a document declares at most this many; the first ones, as written
				}
				declared++
			}
			t = &term{key: k, spells: map[string]int{}, mentions: map[int]string{}, first: 1 << 30}
			terms[k] = t
		} else if explicit && !t.explicit {
			declared++
		}
		t.explicit = t.explicit || explicit
		t.spells[spelling]++
		if _, ok := t.mentions[ord]; !ok || explicit {
			t.mentions[ord] = source
		}
		if len(t.evidence) < x.settings.MaxEvidence {
			t.evidence = append(t.evidence, ev)
		}
		return t
	}
	// What the source declares, from the document's own observation.
	obs, version, err := docObservation(ctx, run.Tx, d)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, nil, series, err
	}
	var fields map[string]json.RawMessage
	if len(obs.Fields) > 0 {
		if err := json.Unmarshal(obs.Fields, &fields); err != nil {
			return nil, nil, series, fmt.Errorf("fields of %s: %w", obs.ID, err)
		}
	}
	var span struct {
		Findings []finding `json:"findings"`
	}
	if len(obs.Span) > 0 {
		_ = json.Unmarshal(obs.Span, &span) // a content ingest's span has no findings
	}
	hashtags := map[string]bool{}
	for _, f := range span.Findings {
		if f.Kind != "hashtag" {
			continue
		}
		hashtags[strings.ToLower(f.Value)] = true
		c, ok := chunkAt(chunks, f.ByteStart)
		spelling := f.Value // the finding is lower-cased; the text keeps "#MachineLearning"
		if o := f.ByteStart + 1 - c.TextStart; ok && o >= 0 && o+len(f.Value) <= len(c.Text) && strings.EqualFold(c.Text[o:o+len(f.Value)], f.Value) {
			spelling = splitCamel(c.Text[o : o+len(f.Value)])
		}
		ev := Evidence{Kind: "chunk", DocumentID: d.DocumentID, Path: d.Path, LineStart: f.Line, LineEnd: f.Line, Page: f.Page, Quote: "#" + f.Value, Field: "hashtag", Value: f.Value}
		ord := -1
		if ok {
			ev.ID, ord = c.ChunkID, c.Ordinal
			if q := lineQuote(c.Text, "#"+f.Value); q != "" {
				ev.Quote = q
			}
		}
		add(spelling, true, ord, SourceHashtag, ev)
	}
	declaredTags := metaList(fields["tags"])
	if len(declaredTags) == 0 {
		declaredTags = d.Tags
	}
	for _, t := range declaredTags {
		t = strings.TrimPrefix(strings.TrimSpace(t), "#")
		if hashtags[strings.ToLower(t)] {
			continue // its hashtag, with its line, was taken above
		}
		add(t, true, -1, SourceTag, Evidence{Kind: "observation", ID: obs.ID, ObservationID: obs.ID, DocumentID: d.DocumentID, Path: d.Path, Field: "tags", Value: t})
	}
	for _, f := range []string{"meta_keywords", "meta_categories", "meta_category"} {
		for _, kw := range metaList(fields[f]) {
			if !declaredKeyword(kw, d.Title, fields["meta_description"]) {
				continue
			}
			add(kw, true, -1, SourceKeyword, Evidence{Kind: "observation", ID: obs.ID, ObservationID: obs.ID, DocumentID: d.DocumentID, Path: d.Path, Field: strings.TrimPrefix(f, "meta_"), Value: kw})
		}
	}
	if x.settings.Headings {
		heads, err := x.headingCandidates(ctx, d, chunks, prose)
		if err != nil {
			return nil, nil, series, err
		}
		if d.Path != "" {
			series.folder = filepath.Dir(d.Path)
			for _, h := range heads {
				series.terms = append(series.terms, h.key)
			}
			sort.Strings(series.terms)
		}
		structural, err := x.structural(ctx, run, series)
		if err != nil {
			return nil, nil, series, err
		}
		// A heading names a topic when the document's prose names it too and its folder does
		// not carry it as a section of every document; the best by how much the prose names
		// them (then the first), at most max_heading_concepts.
		var topics []*headingTerm
		for _, h := range heads {
			if t := terms[h.key]; t != nil && t.explicit {
				topics = append(topics, h) // declared: its heading chunks are mentions of it
				continue
			}
			if h.prose >= max(1, x.settings.MinProseMentions) && !structural[h.key] || x.settings.MinProseMentions == 0 && !structural[h.key] {
				topics = append(topics, h)
			}
		}
		sort.SliceStable(topics, func(i, j int) bool {
			ei, ej := terms[topics[i].key] != nil, terms[topics[j].key] != nil
			if ei != ej {
				return ei
			}
			if topics[i].prose != topics[j].prose {
				return topics[i].prose > topics[j].prose
			}
			return topics[i].first < topics[j].first
		})
		kept := 0
		for _, h := range topics {
			if terms[h.key] == nil {
				if kept >= x.settings.MaxHeadingConcepts {
					continue
				}
				kept++
			}
			for i, sp := range h.spells {
				t := add(sp, false, h.ords[0], SourceHeading, h.evidence[min(i, len(h.evidence)-1)])
				if t == nil {
					break
				}
				for _, o := range h.ords {
					if _, ok := t.mentions[o]; !ok {
						t.mentions[o] = SourceHeading
					}
				}
			}
		}
	}
	keys := sortedKeys(terms)
	var links []store.DerivedLink
	var mentions []store.Mention
	passage := func(ord int) string {
		if i := ordIndex(chunks, ord); i >= 0 {
			return store.PassageOf(chunks[i].Text)
		}
		return ""
	}
	if len(keys) > 0 {
		if x.concept == nil {
			return nil, nil, series, fmt.Errorf("entity type concept is not declared (specs/entities/concept.yaml)")
		}
		if err := ensureDocumentEntity(ctx, run.Tx, d, run.Now); err != nil {
			return nil, nil, series, err
		}
		extractor := "file:analyze"
		if d.Kind == "content" {
			extractor = "content"
		}
		obsList := make([]observe.Observed, 0, len(keys))
		for _, k := range keys {
			t := terms[k]
			// The span says where the document names the concept, as the adapters' spans did: a
			// line, or front matter for a declared tag of a file (TemporalProximity quotes it).
			var sp any
			if ev := t.evidence[0]; ev.LineStart > 0 {
				sp = map[string]any{"path": d.Path, "line": ev.LineStart, "source": t.mentions[ord0(t)]}
			} else if d.Path != "" && (ev.Field == "tags" || ev.Field == "keywords" || ev.Field == "categories" || ev.Field == "category") {
				sp = map[string]any{"path": d.Path, "front_matter": true}
			}
			spec := 1.0
			if !t.explicit {
				spec = x.settings.HeadingScore
			}
			name := x.conceptDisplayName(k, t.spells)
			obsList = append(obsList, observe.Observed{Type: x.concept, Key: k, Name: name, Fields: map[string]any{"name": name}, Specificity: spec,
				Extractor: extractor, Rule: "concept:" + k, Version: version, DocumentID: d.DocumentID, PayloadID: d.PayloadID, Span: sp})
		}
		entIDs, err := observe.Derived(ctx, run.Tx, obsList, run.Now)
		if err != nil {
			return nil, nil, series, err
		}
		// The name shown is the smallest spelling seen in any document: the same for any
		// order of arrival (the first insert's name would not be), and a word as written.
		names := make([][2]string, len(obsList))
		for i, o := range obsList {
			names[i] = [2]string{entIDs[i], o.Name}
		}
		if err := store.LowerNames(ctx, run.Tx, names); err != nil {
			return nil, nil, series, err
		}
		for i, k := range keys {
			t := terms[k]
			v.own[k] = entIDs[i]
			// A declared tag is the source's own word (score tag_score, 1); a heading term is
			// Strata's reading of a section title, right about 35 times in 40 on the research
			// sample (§2), hence heading_score (0.6) below it.
			score := x.settings.HeadingScore
			if t.explicit {
				score = x.settings.TagScore
			}
			for j := range t.evidence {
				t.evidence[j].EntityID = entIDs[i]
			}
			links = append(links, run.Link(TypeRefersTo, d.EntityID, entIDs[i], score, t.evidence, []string{d.DocumentID},
				map[string]any{"spellings": sortedKeys(t.spells), "sources": sourcesOf(t)}))
			for ord, src := range t.mentions {
				mentions = append(mentions, store.Mention{EntityID: entIDs[i], DocumentID: d.DocumentID, Ordinal: ord, Source: src, Passage: passage(ord)})
			}
		}
	}
	// Text mentions: a concept the store knows (from this document or any other), named in a
	// chunk's prose. A chunk where the heading also names it counts as text: the text says it.
	if x.settings.TextMentions {
		mentions = mergeMentions(x.textMentions(d, chunks, prose, v), mentions)
	}
	em, err := emailMentions(ctx, run.Tx, d, chunks)
	if err != nil {
		return nil, nil, series, err
	}
	return links, mergeMentions(em, mentions), series, nil
}

func ordIndex(chunks []store.Chunk, ord int) int {
	i := sort.Search(len(chunks), func(i int) bool { return chunks[i].Ordinal >= ord })
	if i < len(chunks) && chunks[i].Ordinal == ord {
		return i
	}
	return -1
}

func hasLetter(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// headingTerm is one term a document's headings name: its spellings, the chunks under it, how
// many chunks' prose names it, and where it first heads a section.
type headingTerm struct {
	key      string
	spells   []string
	evidence []Evidence
	ords     []int
	prose    int
	first    int
}

// headingCandidates reads the terms the document's headings name (at most max_heading_terms,
// by first appearance), with the chunks under each and how many chunks' prose names each.
func (x *TagConceptBridger) headingCandidates(ctx context.Context, d store.Document, chunks []store.Chunk, prose []map[string]int) ([]*headingTerm, error) {
	byKey := map[string]*headingTerm{}
	var order []*headingTerm
	seen := map[string]bool{}
	for ci, c := range chunks {
		if ci%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if c.Heading == "" {
			continue
		}
		segs := strings.Split(c.Heading, " > ")
		for i, seg := range segs {
			for _, tm := range x.names.headingTerms(seg, x.settings.MaxWords) {
				k := x.names.key(tm)
				if k == "" || !hasLetter(k) {
					continue
				}
				h := byKey[k]
				if h == nil {
					if len(order) >= x.settings.MaxHeadingTermsSeen {
						continue
					}
					h = &headingTerm{key: k, first: c.Ordinal}
					byKey[k] = h
					order = append(order, h)
				}
				if len(h.ords) == 0 || h.ords[len(h.ords)-1] != c.Ordinal {
					h.ords = append(h.ords, c.Ordinal)
				}
				// The evidence is the chunk where the heading itself sits (the first whose path
				// ends with it).
				if first := !seen[k+"\x00"+seg]; first && i == len(segs)-1 && len(h.evidence) < x.settings.MaxEvidence {
					seen[k+"\x00"+seg] = true
					h.spells = append(h.spells, tm)
					h.evidence = append(h.evidence, Evidence{Kind: "chunk", ID: c.ChunkID, DocumentID: d.DocumentID, Path: d.Path,
						LineStart: c.LineStart, LineEnd: c.LineStart, Page: c.Page, Quote: strings.TrimSpace(seg), Field: "heading", Value: tm})
				}
			}
		}
	}
	for _, h := range order {
		if len(h.spells) == 0 { // named only by a parent segment: its first spelling as the key
			h.spells = []string{h.key}
			c := chunks[ordIndex(chunks, h.ords[0])]
			h.evidence = []Evidence{{Kind: "chunk", ID: c.ChunkID, DocumentID: d.DocumentID, Path: d.Path, LineStart: c.LineStart,
				LineEnd: c.LineStart, Page: c.Page, Quote: strings.TrimSpace(c.Heading), Field: "heading", Value: h.key}}
		}
		for i := range prose {
			if _, ok := prose[i][h.key]; ok {
				h.prose++
			}
		}
	}
	return order, nil
}

// structural reports which of a document's heading terms are its folder's structure, as the
// folder's counts will be once the document's terms are in (updateSeries writes them).
func (x *TagConceptBridger) structural(ctx context.Context, run *Run, series seriesTerms) (map[string]bool, error) {
	out := map[string]bool{}
	if series.folder == "" {
		return out, nil
	}
	old, err := store.HeadingTermsOf(ctx, run.Tx, run.Doc.DocumentID)
	if err != nil {
		return nil, err
	}
	had := map[string]bool{}
	for _, t := range old.Terms {
		if old.Folder == series.folder {
			had[t] = true
		}
	}
	counts, err := store.HeadingTermCounts(ctx, run.Tx, series.folder, append([]string{""}, series.terms...))
	if err != nil {
		return nil, err
	}
	total := counts[""]
	if old.Folder != series.folder || len(old.Terms) == 0 {
		if len(series.terms) > 0 {
			total++
		}
	} else if len(series.terms) == 0 {
		total--
	}
	for _, t := range series.terms {
		n := counts[t]
		if !had[t] {
			n++
		}
		out[t] = x.isStructure(total, n)
	}
	return out, nil
}

// isStructure is the series rule: a folder of at least series_min_documents documents with
// headings, at least series_min_shared of which — and at least structure_share of them — carry
// the term.
func (x *TagConceptBridger) isStructure(total, n int) bool {
	s := x.settings
	return total >= s.SeriesMinDocuments && n >= s.SeriesMinShared && float64(n) >= s.StructureShare*float64(total)
}

// updateSeries replaces the document's heading terms in its folder's counts and queues again
// the enrich jobs of the other documents whose terms changed side (structure or topic) with
// the new counts, so a folder's concepts are the same whatever order its files arrived in.
// It reads the counts of the document's own terms and of the terms whose status the change of
// the folder's size alone can move (a band of counts), never the whole folder.
func (x *TagConceptBridger) updateSeries(ctx context.Context, run *Run, series seriesTerms) error {
	old, err := store.HeadingTermsOf(ctx, run.Tx, run.Doc.DocumentID)
	if err != nil {
		return err
	}
	if old.Folder == series.folder && slices.Equal(old.Terms, series.terms) {
		return nil
	}
	flipped := map[string][]string{}
	var folders []string
	for _, f := range []string{old.Folder, series.folder} {
		if f != "" && !slices.Contains(folders, f) {
			folders = append(folders, f)
		}
	}
	for _, f := range folders {
		var was, is []string
		if old.Folder == f {
			was = old.Terms
		}
		if series.folder == f {
			is = series.terms
		}
		own := map[string]bool{}
		for _, t := range was {
			own[t] = true
		}
		for _, t := range is {
			own[t] = true
		}
		counts, err := store.HeadingTermCounts(ctx, run.Tx, f, append([]string{""}, sortedKeys(own)...))
		if err != nil {
			return err
		}
		tb := counts[""]
		ta := tb
		if len(was) > 0 {
			ta--
		}
		if len(is) > 0 {
			ta++
		}
		for _, t := range sortedKeys(own) {
			nb := counts[t]
			na := nb
			if slices.Contains(was, t) {
				na--
			}
			if slices.Contains(is, t) {
				na++
			}
			if x.isStructure(tb, nb) != x.isStructure(ta, na) {
				flipped[f] = append(flipped[f], t)
			}
		}
		if tb == ta {
			continue
		}
		// The other terms keep their counts; the folder's size moved, so those whose count lies
		// where the rule's answer differs between the two sizes change side.
		lo, hi := 0, -1
		for n := 1; n <= max(ta, tb); n++ {
			if x.isStructure(tb, n) != x.isStructure(ta, n) {
				if hi < 0 {
					lo = n
				}
				hi = n
			}
		}
		if hi < 0 {
			continue
		}
		band, err := store.HeadingTermsInBand(ctx, run.Tx, f, lo, hi)
		if err != nil {
			return err
		}
		for _, t := range band {
			if t != "" && !own[t] {
				flipped[f] = append(flipped[f], t)
			}
		}
	}
	if err := store.ReplaceHeadingTerms(ctx, run.Tx, run.Doc.DocumentID, series.folder, series.terms); err != nil {
		return err
	}
	for _, f := range folders {
		if len(flipped[f]) == 0 {
			continue
		}
		if _, err := store.EnqueueEnrichHeading(ctx, run.Tx, f, flipped[f], run.Doc.DocumentID, run.Now); err != nil {
			return err
		}
	}
	return nil
}

// mergeMentions keeps first's rows, then second's for (entity, ordinal) first does not have.
func mergeMentions(first, second []store.Mention) []store.Mention {
	seen := map[string]bool{}
	var out []store.Mention
	for _, list := range [][]store.Mention{first, second} {
		for _, m := range list {
			k := fmt.Sprintf("%s\x00%d", m.EntityID, m.Ordinal)
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].EntityID != out[j].EntityID {
			return out[i].EntityID < out[j].EntityID
		}
		return out[i].Ordinal < out[j].Ordinal
	})
	return out
}

func ord0(t *term) int {
	best := 1 << 30
	for o := range t.mentions {
		best = min(best, o)
	}
	return best
}

func sourcesOf(t *term) []string {
	set := map[string]bool{}
	for _, s := range t.mentions {
		set[s] = true
	}
	return sortedKeys(set)
}

// textMentions finds, chunk by chunk, the runs of words of its prose that are the key of a
// concept the store knows (v, read once per group). Cost: the document's words times max_words, and map look-ups. A run holding a stop
// word is no candidate: no heading term does (headingTerms drops them), so such runs could
// only match a tag written with one, which text mentions then miss.
func (x *TagConceptBridger) textMentions(d store.Document, chunks []store.Chunk, prose []map[string]int, v *vocab) []store.Mention {
	var out []store.Mention
	for i, c := range chunks {
		p := ""
		keys := make([]string, 0, len(prose[i]))
		for k := range prose[i] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if a, ok := x.names.aliases[k]; ok {
				k = a
			}
			id := v.own[k]
			if id == "" {
				id = v.known[k]
			}
			if id == "" {
				continue
			}
			if p == "" {
				p = store.PassageOf(c.Text)
			}
			out = append(out, store.Mention{EntityID: id, DocumentID: d.DocumentID, Ordinal: c.Ordinal, Source: SourceText, Passage: p})
		}
	}
	return out
}

// emailMentions records the chunks where the addresses of the persons the document refers to
// sit (the analysis made those persons; it is their address that places them in a chunk).
func emailMentions(ctx context.Context, q store.Q, d store.Document, chunks []store.Chunk) ([]store.Mention, error) {
	if d.EntityID == "" {
		return nil, nil
	}
	people, err := store.ReferredPersons(ctx, q, d.EntityID)
	if err != nil {
		return nil, err
	}
	var out []store.Mention
	for _, p := range people {
		addr := strings.ToLower(p.IdentityKey)
		if !strings.Contains(addr, "@") {
			continue
		}
		for _, c := range chunks {
			if strings.Contains(strings.ToLower(c.Text), addr) {
				out = append(out, store.Mention{EntityID: p.EntityID, DocumentID: d.DocumentID, Ordinal: c.Ordinal, Source: SourceEmail, Passage: store.PassageOf(c.Text)})
			}
		}
	}
	return out, nil
}

// ensureDocumentEntity makes sure the document's own entity exists (a byte-identical copy is
// registered without analysis and may have none yet), so both ends of its links exist.
func ensureDocumentEntity(ctx context.Context, q store.Q, d store.Document, now string) error {
	if _, err := store.GetEntity(ctx, q, d.EntityID); err == nil {
		return nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return store.UpsertEntities(ctx, q, []store.Entity{{EntityID: d.EntityID, EntityType: "document", CanonicalName: d.Title, IdentityKey: d.DocumentID, CreatedAt: now}})
}

// splitCamel spells a CamelCase hashtag as words ("MachineLearning" → "Machine Learning"): a
// hashtag cannot hold a space, so that is how people write a two-word tag. Only hashtags are
// split: "JavaScript" as a declared tag or a heading stays one word.
func splitCamel(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lineQuote returns the line of text holding needle, trimmed to 200 characters.
func lineQuote(text, needle string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(strings.ToLower(l), strings.ToLower(needle)) {
			return cut(strings.TrimSpace(l), 200)
		}
	}
	return ""
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// conceptDisplayName is how a concept is shown: its spellings as written, lower-cased word by
// word, the smallest of them — a word a source used. The identity key drops the last word's
// plural by rule, which is right for matching but can make a word no one wrote ("type
// aliases" → "type aliase"). A concept reached through a declared alias is named by its
// canonical key, as the YAML declares it.
func (x *TagConceptBridger) conceptDisplayName(key string, spells map[string]int) string {
	best := ""
	for sp := range spells {
		if x.names.plain(sp) != key {
			return key
		}
		w := strings.Join(words(sp), " ")
		if w != "" && (best == "" || w < best) {
			best = w
		}
	}
	if best == "" {
		return key
	}
	return best
}
