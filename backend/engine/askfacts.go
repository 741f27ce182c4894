package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/ask"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/lint"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// Facts: when a question names an entity the store knows, the answer brings that entity's
// snapshot values, each with the observation (and document line, or payload agent) it came
// from. The store's truth model already decided which value wins (merge policies); ask only
// shows it, traced (tracer), so a fact is exactly what `entity get` shows.
//
// A question that asks what the entity did ("What did Acme invoice in March?") is answered by
// the entities one relationship away: those that point at it (an invoice REFERS_TO its vendor,
// a line item is PART_OF its invoice). That hop is taken when the question names their type
// ("invoice", "invoices", "invoiced": compared stemmed) or a period, or when the named entity
// has nothing to say of its own; a named period keeps only those whose date falls in it.

// Fact bounds: a question names a few entities; an answer shows a screenful of facts.
const (
	maxNamedEntities   = 5
	maxRelatedEntities = 10
	maxFacts           = 30
	maxFactSentences   = 5
	maxNameCandidates  = 500
	maxRelationsRead   = 500
)

// factDisagreements are what lint's contradiction check finds of the entities whose facts an
// answer shows (issue 24): a field two standing sources give different values, each with its
// source. The check runs on these entities alone, over the reader (no write lock, nothing
// stored), so ask says what `lint` would report whether or not lint ran.
func (e *Engine) factDisagreements(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var out []string
	for _, c := range lint.Registered() {
		if c.Kind() != lint.Contradiction {
			continue
		}
		found, err := c.Check(ctx, e.lintEnv(e.db.Reader()), ids)
		if err != nil {
			return nil, err
		}
		lint.Sort(found)
		for _, f := range found {
			out = append(out, f.Title)
		}
	}
	return out, nil
}

// askFacts finds the entities a question names and their facts.
func (e *Engine) askFacts(ctx context.Context, question string) (ask.FactSet, error) {
	out := ask.FactSet{List: []Fact{}}
	period := answer.ParsePeriod(question)
	// A name can be meant only if its first word is a word of the question (the name must
	// stand there whole): those are looked up, stop words included ("The Guardian").
	qwords := search.Words(question)
	var probe []string
	seen := map[string]bool{}
	for _, w := range qwords {
		if len([]rune(w)) >= 2 && !seen[w] {
			seen[w] = true
			probe = append(probe, w)
		}
	}
	cands, err := store.EntitiesNaming(ctx, e.db.Reader(), probe, DocumentType, maxNameCandidates)
	if err != nil {
		return out, err
	}
	type named struct {
		ent   store.Entity
		at    int      // first question word of the name
		words int      // words of the name
		name  []string // the name's words as the question says them
	}
	var found []named
	for _, ent := range cands {
		best := named{ent: ent, at: -1}
		for _, n := range append([]string{ent.CanonicalName}, ent.Aliases...) {
			nw := answer.NameWords(n)
			if at := answer.NameAt(qwords, nw); at >= 0 && len(nw) > best.words {
				best.at, best.words, best.name = at, len(nw), nw
			}
		}
		if best.at >= 0 {
			found = append(found, best)
		}
	}
	// Longer names first (they say more), then where the question names them, then by ID.
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].words != found[j].words {
			return found[i].words > found[j].words
		}
		if found[i].at != found[j].at {
			return found[i].at < found[j].at
		}
		return found[i].ent.EntityID < found[j].ent.EntityID
	})
	if len(found) > maxNamedEntities {
		found = found[:maxNamedEntities]
	}
	qstems := map[string]bool{}
	for _, s := range search.Stems(question) {
		qstems[s] = true
	}
	for _, nm := range found {
		fe, err := e.entityFacts(ctx, nm.ent, "", nil)
		if err != nil {
			return out, err
		}
		shown, asked, err := e.relatedFacts(ctx, nm.ent, fe.Name, qstems, period, len(fe.Facts) == 0)
		if err != nil {
			return out, err
		}
		if !asked {
			shown = append([]*ask.FactEntity{fe}, shown...)
		}
		for _, f := range shown {
			if len(f.Facts) > 0 {
				out.Named = append(out.Named, nm.name)
				break
			}
		}
		for _, f := range shown {
			if len(f.Facts) == 0 {
				continue
			}
			room := maxFacts - len(out.List)
			if room <= 0 {
				return out, nil
			}
			if len(f.Facts) > room {
				f.Facts = f.Facts[:room]
			}
			out.List = append(out.List, f.Facts...)
			out.Entities = append(out.Entities, f)
		}
	}
	return out, nil
}

// relatedFacts are the facts of the entities that point at ent by an asserted relationship,
// when the question asks about them (see the file comment): asked says it does (it names their
// type or a period), and then the entity's own values are no answer to it, found or not.
func (e *Engine) relatedFacts(ctx context.Context, ent store.Entity, name string, qstems map[string]bool, period answer.Period, bare bool) (list []*ask.FactEntity, asked bool, err error) {
	rels, _, err := store.ListRelationships(ctx, e.db.Reader(), store.RelationshipFilter{EntityID: ent.EntityID, Direction: "inbound", Limit: maxRelationsRead})
	if err != nil {
		return nil, false, err
	}
	srcIDs := make([]string, 0, len(rels))
	for _, r := range rels {
		srcIDs = append(srcIDs, r.SourceEntityID)
	}
	refs, err := store.EntityRefs(ctx, e.db.Reader(), srcIDs)
	if err != nil {
		return nil, false, err
	}
	typeNamed := map[string]bool{} // related types the question names
	for _, ref := range refs {
		for _, s := range search.Stems(strings.ReplaceAll(ref.EntityType, "_", " ")) {
			if qstems[s] {
				typeNamed[ref.EntityType] = true
			}
		}
	}
	asked = len(typeNamed) > 0 || !period.IsZero()
	if !asked && !bare {
		return nil, false, nil // the question asks about the entity itself
	}
	// Each candidate's date is read from its snapshot (one row); only those shown are traced to
	// their sources, however many invoices a vendor has.
	type cand struct{ id, date string }
	seen := map[string]bool{}
	var cands []cand
	for _, r := range rels {
		ref, ok := refs[r.SourceEntityID]
		if !ok || seen[ref.EntityID] || ref.EntityType == DocumentType || len(typeNamed) > 0 && !typeNamed[ref.EntityType] {
			continue
		}
		seen[ref.EntityID] = true
		date, err := e.snapshotDate(ctx, ref.EntityID)
		if err != nil {
			return nil, false, err
		}
		if !period.IsZero() && !period.Contains(date) {
			continue
		}
		cands = append(cands, cand{ref.EntityID, date})
	}
	// By date (undated last), then ID: the order a person reads a history in.
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i].date, cands[j].date
		if (a == "") != (b == "") {
			return b == ""
		}
		if a != b {
			return a < b
		}
		return cands[i].id < cands[j].id
	})
	var out []*ask.FactEntity
	for _, c := range cands[:min(len(cands), maxRelatedEntities)] {
		src, err := store.GetEntity(ctx, e.db.Reader(), c.id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		fe, err := e.entityFacts(ctx, src, name, append([]string{name, ent.CanonicalName}, ent.Aliases...))
		if err != nil {
			return nil, false, err
		}
		out = append(out, fe)
	}
	return out, asked, nil
}

// snapshotDate is an entity's own date (dateFields) as its snapshot holds it, "" if none.
func (e *Engine) snapshotDate(ctx context.Context, id string) (string, error) {
	row, err := store.GetSnapshot(ctx, e.db.Reader(), id)
	if errors.Is(err, store.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var snap map[string]json.RawMessage
	if err := json.Unmarshal(row.Snapshot, &snap); err != nil {
		return "", fmt.Errorf("snapshot of %s: %w", id, err)
	}
	return dateOf(snap), nil
}

// dateOf is the first of dateFields a snapshot holds as a string.
func dateOf(snap map[string]json.RawMessage) string {
	for _, f := range dateFields {
		var s string
		if v, ok := snap[f]; ok && json.Unmarshal(v, &s) == nil {
			return s
		}
	}
	return ""
}

// dateFields name an entity's own date, most telling first: an invoice's date, a contract's
// start.
var dateFields = []string{"date", "start_date", "observed_at", "due_date", "end_date"}

// entityFacts traces an entity's snapshot fields to their sources. Fields that only repeat a
// name (the entity's own, or that of the entity it is related to: an invoice's vendor_name
// when the question is about that vendor) are left out, as are values read from documents
// Strata wrote itself (an earlier answer is not a source).
func (e *Engine) entityFacts(ctx context.Context, ent store.Entity, about string, aboutNames []string) (*ask.FactEntity, error) {
	tr, err := e.tracer(ctx, ent.EntityID)
	if err != nil {
		return nil, err
	}
	fe := &ask.FactEntity{ID: ent.EntityID, Type: ent.EntityType, Name: displayName(ent, tr.snap), About: about}
	names := map[string]bool{ids.NormalizeKey(ent.CanonicalName): true}
	for _, a := range append(append([]string{}, ent.Aliases...), aboutNames...) {
		names[ids.NormalizeKey(a)] = true
	}
	fields := make([]string, 0, len(tr.snap))
	for f := range tr.snap {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	fe.Date = dateOf(tr.snap)
	for _, f := range fields {
		v := tr.snap[f]
		if string(v) == "null" || len(v) == 0 {
			continue
		}
		var s string
		if json.Unmarshal(v, &s) == nil && names[ids.NormalizeKey(s)] {
			continue
		}
		p, err := tr.trace(ctx, f)
		if err != nil {
			return nil, err
		}
		fact := Fact{EntityID: ent.EntityID, EntityType: ent.EntityType, EntityName: fe.Name, Field: f, Value: v,
			ObservationID: p.SourceObservation.ID}
		if d := p.SourceDocument; d != nil {
			if e.IsGenerated(d.Path) {
				continue
			}
			fact.DocumentID, fact.Path = d.DocumentID, d.Path
			fact.Line, fact.Page = spanPlace(p.SourceObservation.Span)
			if fact.Line == 0 {
				if fact.Line, fact.Page, err = e.spanChunkPlace(ctx, p.SourceObservation.Span, v); err != nil {
					return nil, err
				}
			}
		} else {
			fact.Agent = payloadAgent(p.SourcePayload.Origin)
		}
		fe.Facts = append(fe.Facts, fact)
	}
	return fe, nil
}

// displayName is how an answer names an entity: its snapshot's name (or title), which the
// merge policy chose whatever order the sources came in, else its canonical name. (The
// canonical name is the first spelling the store met — "ACME Corp." or "Acme Corp" depending on
// which arrived first — so two stores of the same sources could name it differently.)
func displayName(ent store.Entity, snap map[string]json.RawMessage) string {
	for _, f := range []string{"name", "title"} {
		var s string
		if v, ok := snap[f]; ok && json.Unmarshal(v, &s) == nil && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ent.CanonicalName
}

// spanPlace reads the line and page an observation's span names (the analysis phase's facts).
func spanPlace(span json.RawMessage) (line, page int) {
	var s struct {
		Line int `json:"line"`
		Page int `json:"page"`
	}
	if len(span) > 0 && json.Unmarshal(span, &s) == nil {
		return s.Line, s.Page
	}
	return 0, 0
}

// spanChunkPlace is where a semantic observation's value is written: the first line of the
// chunks its span cites (the chunks the chat model said it read the values from) that holds the
// value, else the first line of the first of them.
func (e *Engine) spanChunkPlace(ctx context.Context, span, value json.RawMessage) (line, page int, err error) {
	var s struct {
		Chunks []string `json:"chunks"`
	}
	if len(span) == 0 || json.Unmarshal(span, &s) != nil || len(s.Chunks) == 0 {
		return 0, 0, nil
	}
	cs, err := store.ChunksByID(ctx, e.db.Reader(), s.Chunks)
	if err != nil || len(cs) == 0 {
		return 0, 0, err
	}
	for _, c := range cs {
		for i, l := range strings.Split(c.Text, "\n") {
			if ask.LineHolds(l, value) {
				return c.FileLine(i), c.Page, nil
			}
		}
	}
	return cs[0].LineStart, cs[0].Page, nil
}

// payloadAgent names who submitted a payload: its agent, else its extractor.
func payloadAgent(origin json.RawMessage) string {
	var o struct {
		Agent     string `json:"agent_id"`
		Extractor string `json:"extractor_version"`
		Source    string `json:"source"`
	}
	if json.Unmarshal(origin, &o) != nil {
		return ""
	}
	for _, s := range []string{o.Agent, o.Extractor, o.Source} {
		if s != "" {
			return s
		}
	}
	return ""
}
