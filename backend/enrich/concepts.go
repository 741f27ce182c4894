package enrich

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
}

// TagConceptBridger turns what a document declares (tags, trailing #hashtags, front-matter or
// meta keywords) and the terms of its headings into concept entities the document REFERS_TO
// (derived), and records where each concept — and each person whose address the text holds —
// is mentioned, chunk by chunk (entity_mentions), for CoOccurrence.
//
// Spellings resolve to one concept by a key computed from the spelling alone (case,
// punctuation and the head noun's plural dropped, declared aliases applied), never by
// similarity; the concept's display name is that key, so the entity's ID and name are the
// same whichever document arrives first.
type TagConceptBridger struct {
	settings conceptSettings
	names    *conceptNames
	concept  *spec.EntityType
}

func (x *TagConceptBridger) useSpecs(reg *spec.Registry) { x.concept = reg.EntityTypes["concept"] }

// Name implements Enrichment.
func (x *TagConceptBridger) Name() string { return "TagConceptBridger" }

// Version implements Enrichment.
func (x *TagConceptBridger) Version() string { return "1" }

// ReactsTo implements Enrichment.
func (x *TagConceptBridger) ReactsTo() []Emission {
	return []Emission{DocumentAnalyzed, DocumentRemoved}
}

// Configure implements Enrichment. The defaults are those of specs/enrichments.yaml (which says
// where each comes from); they are repeated here so the type works without the file.
func (x *TagConceptBridger) Configure(params map[string]any) error {
	x.settings = conceptSettings{TagScore: 1, HeadingScore: 0.6, Headings: true, TextMentions: true, MaxWords: 3, MaxEvidence: 3,
		Generic: defaultGeneric, PluralExceptions: defaultPluralExceptions}
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
	}
	x.names = newConceptNames(s)
	return nil
}

var defaultGeneric = []string{"introduction", "summary", "overview", "conclusion", "example", "option", "note", "see also",
	"description", "usage", "synopsis", "constant", "api", "class", "method", "property", "event", "error", "background", "detail",
	"caveat", "consideration", "appendix", "keyword", "misc", "general", "basic", "getting started", "installation", "setup",
	"configuration", "faq", "reference", "index", "content", "foreword", "preface", "acknowledgment", "author", "bug", "copyright",
	"license", "history", "change", "changelog", "todo", "next step", "exit status", "return value", "agenda", "attendee",
	"decision", "action item"}

var defaultPluralExceptions = []string{"windows", "news", "series", "species", "class", "status", "analysis", "basis", "axis",
	"process", "access", "address", "always", "perhaps", "various", "previous", "its", "this", "has", "was", "does", "is", "as", "us"}

// term is one concept found in the document, with where.
type term struct {
	key      string
	explicit bool           // a tag or keyword: the source says so (score tag_score)
	spells   map[string]int // spellings as written → times
	evidence []Evidence
	mentions map[int]string // chunk ordinal (-1: the document) → source
}

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
	if _, err := store.DeleteMentions(ctx, run.Tx, d.DocumentID); err != nil {
		return err
	}
	var links []store.DerivedLink
	var after []store.Mention
	var keys []string
	// A document Strata wrote itself (an answer, a lint report) names no concept of its own:
	// its headings are the report's, not the user's.
	if run.Live && d.DocType != store.DocTypeGenerated {
		links, after, keys, err = x.derive(ctx, run)
		if err != nil {
			return err
		}
	}
	if err := store.InsertMentions(ctx, run.Tx, after); err != nil {
		return err
	}
	for _, m := range after {
		touched[m.EntityID] = true
	}
	// A concept that became known to the store (or stopped being known) changes what other
	// documents' text mentions: they are found (or dropped) here, at the cost of the concept's
	// own occurrences, so the mentions are the same whatever order documents arrived in.
	if x.settings.TextMentions {
		if err := x.propagate(ctx, run, before, after, keys); err != nil {
			return err
		}
	}
	list := make([]string, 0, len(touched))
	for id := range touched {
		list = append(list, id)
	}
	sort.Strings(list)
	if run.Shared != nil {
		run.Shared[sharedTouched] = list
	}
	if d.EntityID == "" {
		return nil
	}
	return run.Replace(ctx, store.LinkScope{Types: []string{TypeRefersTo}, SourceIn: []string{d.EntityID}}, links)
}

// bridging reports whether a mention source makes a concept known (text mentions only find
// concepts that something else made).
func bridging(source string) bool {
	return source == SourceTag || source == SourceHashtag || source == SourceKeyword || source == SourceHeading
}

// propagate adds text mentions of concepts this run made known to the store to the other
// documents whose text names them, and removes those of concepts no document makes any more.
func (x *TagConceptBridger) propagate(ctx context.Context, run *Run, before, after []store.Mention, ownKeys []string) error {
	was, is := map[string]bool{}, map[string]bool{}
	for _, m := range before {
		if bridging(m.Source) {
			was[m.EntityID] = true
		}
	}
	keys := map[string]string{} // entity → key, for the concepts of this run
	for _, m := range after {
		if bridging(m.Source) {
			is[m.EntityID] = true
		}
	}
	for _, k := range ownKeys {
		keys[ids.Entity("concept", k)] = k
	}
	for _, id := range sortedKeys(was) {
		if is[id] {
			continue
		}
		n, err := store.CountMentions(ctx, run.Tx, id, SourceText, SourceEmail)
		if err != nil {
			return err
		}
		if n == 0 { // nothing makes it known any more: nor does its name in text
			if err := store.DeleteMentionsBySource(ctx, run.Tx, id, SourceText); err != nil {
				return err
			}
		}
	}
	for _, id := range sortedKeys(is) {
		if was[id] {
			continue
		}
		n, err := store.CountMentions(ctx, run.Tx, id, SourceText, SourceEmail)
		if err != nil {
			return err
		}
		if n > countOwn(after, id) {
			continue // known already: other documents' text mentions were found then
		}
		k := keys[id]
		if k == "" {
			continue
		}
		if err := x.findInOthers(ctx, run, id, k); err != nil {
			return err
		}
	}
	return nil
}

func countOwn(ms []store.Mention, id string) int {
	n := 0
	for _, m := range ms {
		if m.EntityID == id && bridging(m.Source) {
			n++
		}
	}
	return n
}

// findInOthers records the text mentions of a newly known concept in other documents: FTS5
// finds candidate chunks (it stems, so it finds at least the exact matches), textKeys confirms.
func (x *TagConceptBridger) findInOthers(ctx context.Context, run *Run, id, key string) error {
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
		found, err := store.PhraseChunks(ctx, run.Tx, `text : "`+sp+`"`, run.Doc.DocumentID)
		if err != nil {
			return err
		}
		for _, c := range found {
			if k := fmt.Sprintf("%s\x00%d", c.DocumentID, c.Ordinal); !seen[k] {
				seen[k] = true
				cands = append(cands, c)
			}
		}
	}
	var rows []store.Mention
	for _, c := range cands {
		ch, err := store.ChunkAt(ctx, run.Tx, c.DocumentID, c.Ordinal)
		if err != nil {
			return err
		}
		if x.textHas(ch.Text, key) {
			rows = append(rows, store.Mention{EntityID: id, DocumentID: c.DocumentID, Ordinal: c.Ordinal, Source: SourceText, Passage: store.PassageOf(ch.Text)})
		}
	}
	return store.InsertMentions(ctx, run.Tx, rows)
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

// derive computes the document's concepts, its REFERS_TO links and its mention rows.
func (x *TagConceptBridger) derive(ctx context.Context, run *Run) ([]store.DerivedLink, []store.Mention, []string, error) {
	d := run.Doc
	chunks, err := store.ChunksOf(ctx, run.Tx, d.DocumentID)
	if err != nil {
		return nil, nil, nil, err
	}
	passage := map[int]string{}
	for _, c := range chunks {
		passage[c.Ordinal] = store.PassageOf(c.Text)
	}
	terms := map[string]*term{}
	add := func(spelling string, explicit bool, ord int, source string, ev Evidence) {
		k := x.names.key(spelling)
		if k == "" {
			return
		}
		t := terms[k]
		if t == nil {
			t = &term{key: k, spells: map[string]int{}, mentions: map[int]string{}}
			terms[k] = t
		}
		t.explicit = t.explicit || explicit
		t.spells[spelling]++
		if _, ok := t.mentions[ord]; !ok || explicit {
			t.mentions[ord] = source
		}
		if len(t.evidence) < x.settings.MaxEvidence {
			t.evidence = append(t.evidence, ev)
		}
	}
	chunkAtText := func(off int) (store.Chunk, bool) {
		for _, c := range chunks {
			if off >= c.TextStart && off < c.TextEnd {
				return c, true
			}
		}
		return store.Chunk{}, false
	}
	// What the source declares, from the document's own observation.
	obs, version, err := docObservation(ctx, run.Tx, d)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, nil, nil, err
	}
	var fields map[string]json.RawMessage
	if len(obs.Fields) > 0 {
		if err := json.Unmarshal(obs.Fields, &fields); err != nil {
			return nil, nil, nil, fmt.Errorf("fields of %s: %w", obs.ID, err)
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
		c, ok := chunkAtText(f.ByteStart)
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
	declared := metaList(fields["tags"])
	if len(declared) == 0 {
		declared = d.Tags
	}
	for _, t := range declared {
		t = strings.TrimPrefix(strings.TrimSpace(t), "#")
		if hashtags[strings.ToLower(t)] {
			continue // its hashtag, with its line, was taken above
		}
		add(t, true, -1, SourceTag, Evidence{Kind: "observation", ID: obs.ID, ObservationID: obs.ID, DocumentID: d.DocumentID, Path: d.Path, Field: "tags", Value: t})
	}
	for _, f := range []string{"meta_keywords", "meta_categories", "meta_category"} {
		for _, kw := range metaList(fields[f]) {
			add(kw, true, -1, SourceKeyword, Evidence{Kind: "observation", ID: obs.ID, ObservationID: obs.ID, DocumentID: d.DocumentID, Path: d.Path, Field: strings.TrimPrefix(f, "meta_"), Value: kw})
		}
	}
	// Heading terms: each chunk under a heading mentions its terms; the evidence is the chunk
	// where the heading itself sits (the first whose path ends with it).
	if x.settings.Headings {
		seen := map[string]bool{}
		for _, c := range chunks {
			if c.Heading == "" {
				continue
			}
			segs := strings.Split(c.Heading, " > ")
			for i, seg := range segs {
				for _, tm := range x.names.headingTerms(seg, x.settings.MaxWords) {
					k := x.names.key(tm)
					first := !seen[k+"\x00"+seg]
					seen[k+"\x00"+seg] = true
					if !first || i != len(segs)-1 {
						if t := terms[k]; t != nil {
							if _, ok := t.mentions[c.Ordinal]; !ok {
								t.mentions[c.Ordinal] = SourceHeading
							}
							continue
						}
					}
					add(tm, false, c.Ordinal, SourceHeading, Evidence{Kind: "chunk", ID: c.ChunkID, DocumentID: d.DocumentID, Path: d.Path,
						LineStart: c.LineStart, LineEnd: c.LineStart, Page: c.Page, Quote: strings.TrimSpace(seg), Field: "heading", Value: tm})
				}
			}
		}
	}
	keys := sortedKeys(terms)
	var links []store.DerivedLink
	var mentions []store.Mention
	if len(keys) > 0 {
		if x.concept == nil {
			return nil, nil, nil, fmt.Errorf("entity type concept is not declared (specs/entities/concept.yaml)")
		}
		if err := ensureDocumentEntity(ctx, run.Tx, d, run.Now); err != nil {
			return nil, nil, nil, err
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
			return nil, nil, nil, err
		}
		// The name shown is the smallest spelling seen in any document: the same for any
		// order of arrival (the first insert's name would not be), and a word as written.
		for i, o := range obsList {
			if _, err := run.Tx.ExecContext(ctx, `UPDATE entities SET canonical_name = ? WHERE entity_id = ? AND canonical_name > ?`,
				o.Name, entIDs[i], o.Name); err != nil {
				return nil, nil, nil, fmt.Errorf("name concept %s: %w", o.Key, err)
			}
		}
		for i, k := range keys {
			t := terms[k]
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
				mentions = append(mentions, store.Mention{EntityID: entIDs[i], DocumentID: d.DocumentID, Ordinal: ord, Source: src, Passage: passage[ord]})
			}
		}
	}
	// Text mentions: a concept the store knows (from this document or any other), named in a
	// chunk's text. A chunk where the heading also names it counts as text: the text says it.
	if x.settings.TextMentions {
		tm, err := x.textMentions(ctx, run, chunks, terms)
		if err != nil {
			return nil, nil, nil, err
		}
		mentions = mergeMentions(tm, mentions)
	}
	em, err := emailMentions(ctx, run.Tx, d, chunks)
	if err != nil {
		return nil, nil, nil, err
	}
	mentions = mergeMentions(em, mentions)
	return links, mentions, keys, nil
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

// textMentions finds, chunk by chunk, the runs of words that are the key of a concept the
// store knows. Cost: the document's words times max_words, and one indexed look-up per batch
// of distinct candidate keys (the store's concepts are never scanned). A run holding a stop
// word is no candidate: no heading term does (headingTerms drops them), so such runs could
// only match a tag written with one, which text mentions then miss.
func (x *TagConceptBridger) textMentions(ctx context.Context, run *Run, chunks []store.Chunk, own map[string]*term) ([]store.Mention, error) {
	perChunk := make([][]string, len(chunks))
	idOf := map[string]string{} // key → entity ID
	var candIDs []string
	for i, c := range chunks {
		for k := range x.names.textKeys(c.Text, x.settings.MaxWords) {
			if a, ok := x.names.aliases[k]; ok {
				k = a
			}
			perChunk[i] = append(perChunk[i], k)
			if _, ok := idOf[k]; ok {
				continue
			}
			id := ids.Entity("concept", k)
			idOf[k] = id
			if own[k] == nil {
				candIDs = append(candIDs, id)
			}
		}
	}
	known, err := store.BridgedEntities(ctx, run.Tx, candIDs, run.Doc.DocumentID, SourceTag, SourceHashtag, SourceKeyword, SourceHeading)
	if err != nil {
		return nil, err
	}
	for k := range own {
		known[ids.Entity("concept", k)] = true
	}
	var out []store.Mention
	for i, c := range chunks {
		p := ""
		for _, k := range perChunk[i] {
			if id := idOf[k]; known[id] {
				if p == "" {
					p = store.PassageOf(c.Text)
				}
				out = append(out, store.Mention{EntityID: id, DocumentID: run.Doc.DocumentID, Ordinal: c.Ordinal, Source: SourceText, Passage: p})
			}
		}
	}
	return out, nil
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
