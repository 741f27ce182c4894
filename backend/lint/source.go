package lint

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/store"
)

// A source is who said something: a document (a file or a stored text, whatever version of it
// is current), or, for a payload no document holds, the agent that submitted it. Two
// observations from one source never contradict each other: a newer version of the same source
// (the file changed, the agent resubmitted) replaces the older one.
type source struct {
	key  string // doc:<document_id> or agent:<name>
	doc  *store.LintDoc
	name string // the agent (or client, or extractor) of a payload source
	day  string // the day the source speaks for (YYYY-MM-DD), "" if unknown
}

// live reports whether a document is one whose statements stand today: read, not removed or
// failed, not a byte-identical copy (the original speaks for it), not written by Strata.
func live(env Env, d *store.LintDoc) bool {
	if d == nil || (d.Status != "analyzed" && d.Status != "semantic") || d.DuplicateOf != "" {
		return false
	}
	return env.Generated == nil || d.Path == "" || !env.Generated(d.Path)
}

// settled reports a live document whose enrichments have run: only then are its links all
// there, so only then can it be connected to nothing, or missing a link. (Its statements stand
// before that: live is enough for a source.)
func settled(env Env, d *store.LintDoc) bool { return live(env, d) && !d.Pending }

// docDay is the day a document speaks for: the day it is about (its front matter's date, a
// date near its top — TemporalProximity's reading), else the day the file was last changed.
func docDay(d *store.LintDoc) string {
	if d.Day != "" {
		return d.Day
	}
	if len(d.Mtime) >= 10 {
		return d.Mtime[:10]
	}
	return ""
}

// obsSource is who made an observation and whether it still stands: a document's observation
// stands while that version of the document is current; a payload's while it is the agent's
// newest word on the entity (decided by the caller, which sees them all).
type obsSource struct {
	source
	current bool
}

type origin struct {
	AgentID          string   `json:"agent_id"`
	Source           string   `json:"source"`
	ExtractorVersion string   `json:"extractor_version"`
	SourceRefs       []string `json:"source_refs"`
}

func sourceOf(env Env, o store.LintObservation, srcs *sources) obsSource {
	docs := srcs.docs
	var org origin
	_ = json.Unmarshal(o.Origin, &org) // written by ingest; a field missing is ""
	if o.DocumentID != "" {
		d := docs[o.DocumentID]
		s := obsSource{source: source{key: "doc:" + o.DocumentID, doc: d}}
		if d == nil {
			return s
		}
		s.day = docDay(d)
		// A semantic observation's payload is the model's answer; the document version it read
		// is the answer's first source reference.
		version := o.PayloadID
		if o.PayloadKind == "semantic" && len(org.SourceRefs) > 0 {
			version = org.SourceRefs[0]
		}
		s.current = live(env, d) && (version == d.PayloadID || d.Kind == "content")
		return s
	}
	name := org.AgentID
	switch {
	case name != "":
	case org.Source != "":
		name = org.Source
	case org.ExtractorVersion != "":
		name = org.ExtractorVersion
	default:
		name = "an unnamed agent"
	}
	day := ""
	if len(o.ObservedAt) >= 10 {
		day = o.ObservedAt[:10]
	}
	// One record (the payload's primary entity: the invoice of an invoice) from one agent is
	// one source: the agent resubmitting it replaces its earlier word. Another record by the
	// same agent (the next invoice of the same vendor) is another source.
	record := srcs.primary[o.PayloadID]
	if record == "" {
		record = o.PayloadID
	}
	return obsSource{source: source{key: "agent:" + name + "|" + record, name: name, day: day}}
}

// daysBetween is b − a in whole days (both YYYY-MM-DD); ok is false if either is not a day.
func daysBetween(a, b string) (int, bool) {
	ta, err1 := time.Parse("2006-01-02", a)
	tb, err2 := time.Parse("2006-01-02", b)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return int(tb.Sub(ta).Hours() / 24), true
}

// sameValue is how lint compares two sources' values: their canonical JSON, with text compared
// the way identity keys are (case, runs of spaces and trailing punctuation do not count: "ACME
// Corp." and "Acme Corp" say the same).
func sameValue(a, b json.RawMessage) bool { return valueKey(a) == valueKey(b) }

func valueKey(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return "s:" + ids.NormalizeKey(s)
	}
	c, err := ids.Canonical(v)
	if err != nil {
		return "r:" + string(v)
	}
	return "j:" + string(c)
}

// display is a value as a person reads it in a title: text without quotes marks' escaping,
// numbers and dates as written, lists and objects as compact JSON, cut to 60 characters.
func display(v json.RawMessage) string {
	var s string
	out := string(v)
	if json.Unmarshal(v, &s) == nil {
		out = `"` + s + `"`
	}
	return cut(out, 60)
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// renderings are the ways a text may write a value, for finding the line that states it: the
// text itself, or a number with and without thousands separators and cents.
func renderings(v json.RawMessage) []string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return []string{s}
	}
	var n json.Number
	if json.Unmarshal(v, &n) != nil {
		return nil
	}
	plain := n.String()
	out := []string{plain}
	whole, frac, _ := strings.Cut(plain, ".")
	if grouped := group(whole); grouped != whole {
		if frac != "" {
			out = append(out, grouped+"."+frac)
		} else {
			out = append(out, grouped, grouped+".00")
		}
	}
	if frac == "" {
		out = append(out, plain+".00")
	}
	return out
}

// group writes digits with thousands separators: 1500 → 1,500.
func group(digits string) string {
	neg := strings.HasPrefix(digits, "-")
	digits = strings.TrimPrefix(digits, "-")
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// span is where an observation says it was read: a file line (and page), or the chunks a
// model cited.
type span struct {
	Line   int      `json:"line"`
	Page   int      `json:"page"`
	Chunks []string `json:"chunks"`
	// content ingest's own location of a note in a file it names
	LineStart int `json:"line_start"`
}

// docEvidence is a place in a document: the line that states want (a value, a name), near the
// line the observation recorded, quoted as the document's text has it. Where the text does not
// hold want, the recorded line is given with what it says; a document without chunks is named
// without a line.
func docEvidence(ctx context.Context, env Env, d *store.LintDoc, sp span, want []string) (Evidence, error) {
	ev := Evidence{DocumentID: d.DocumentID, EntityID: d.EntityID, Path: d.Path, Title: d.Title, Date: docDay(d)}
	line := sp.Line
	if line == 0 {
		line = sp.LineStart
	}
	var c store.Chunk
	var err error
	switch {
	case len(sp.Chunks) > 0:
		c, err = chunkByID(ctx, env, sp.Chunks[0])
	case line > 0:
		c, err = store.ChunkCovering(ctx, env.Q, d.DocumentID, line, 0)
	default:
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) && len(want) > 0 {
		c, err = chunkHolding(ctx, env, d.DocumentID, want)
	}
	if errors.Is(err, store.ErrNotFound) {
		ev.LineStart, ev.LineEnd, ev.Page = line, line, sp.Page
		return ev, nil
	}
	if err != nil {
		return ev, err
	}
	i, text := lineHolding(c, line, want)
	ev.LineStart = c.FileLine(i)
	ev.LineEnd = ev.LineStart
	ev.Page = c.Page
	ev.Quote = excerpt(strings.Join(strings.Fields(text), " "), want, 200)
	return ev, nil
}

// excerpt cuts a long line to about n characters around the first of want it holds, so the
// quote shows what it is quoted for.
func excerpt(line string, want []string, n int) string {
	r := []rune(line)
	if len(r) <= n {
		return line
	}
	low := []rune(strings.ToLower(line))
	at := -1
	for _, w := range want {
		w = strings.ToLower(strings.TrimSpace(w))
		if w == "" {
			continue
		}
		if i := strings.Index(string(low), w); i >= 0 {
			at = len([]rune(string(low)[:i]))
			break
		}
	}
	if at < 0 {
		return cut(line, n)
	}
	start := max(0, at-n/3)
	end := min(len(r), start+n)
	start = max(0, end-n)
	out := string(r[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(r) {
		out += "…"
	}
	return out
}

// chunkHolding is the first chunk of a document whose text holds one of want (any case).
func chunkHolding(ctx context.Context, env Env, documentID string, want []string) (store.Chunk, error) {
	for _, w := range want {
		if strings.TrimSpace(w) == "" {
			continue
		}
		id, _, _, _, err := store.ChunkMentioning(ctx, env.Q, documentID, w, 0)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return store.Chunk{}, err
		}
		return chunkByID(ctx, env, id)
	}
	return store.Chunk{}, store.ErrNotFound
}

// lineHolding picks the chunk's text line to quote: the one holding one of want nearest to the
// file line given, else the line given itself, else the chunk's first line.
func lineHolding(c store.Chunk, line int, want []string) (int, string) {
	lines := strings.Split(c.Text, "\n")
	best, bestDist := -1, 0
	for i, l := range lines {
		low := strings.ToLower(l)
		for _, w := range want {
			if w = strings.ToLower(strings.TrimSpace(w)); w != "" && strings.Contains(low, w) {
				d := c.FileLine(i) - line
				if d < 0 {
					d = -d
				}
				if best < 0 || d < bestDist {
					best, bestDist = i, d
				}
				break
			}
		}
	}
	if best < 0 {
		best = max(0, c.LineIndexOf(line))
	}
	return best, lines[best]
}

// docName is how a finding names a document: its folder and file name (or title for a stored
// text). The folder tells apart the many README.Debian and copyright files of /usr/share/doc.
func docName(d *store.LintDoc) string {
	if d.Path != "" {
		return shortPath(d.Path)
	}
	if d.Title != "" {
		return d.Title
	}
	return d.DocumentID
}

// sourceName names a source in a sentence.
func sourceName(s source) string {
	if s.doc != nil {
		return docName(s.doc)
	}
	return "agent " + s.name
}

// shortPath is a file's folder and name: /usr/share/doc/tar/README.Debian → tar/README.Debian.
func shortPath(p string) string {
	dir := filepath.Base(filepath.Dir(p))
	if dir == "." || dir == string(filepath.Separator) {
		return filepath.Base(p)
	}
	return dir + "/" + filepath.Base(p)
}

// where is a finding's "file:line" (or "file p.N", or "agent NAME") for a piece of evidence.
func where(e Evidence) string {
	n := e.Path
	if n == "" {
		n = e.Title
	} else {
		n = shortPath(n)
	}
	if n == "" && e.Source != "" {
		return "agent " + e.Source
	}
	switch {
	case e.Page > 0:
		return fmt.Sprintf("%s p.%d", n, e.Page)
	case e.LineStart > 0:
		return fmt.Sprintf("%s:%d", n, e.LineStart)
	}
	return n
}

// openFix opens a piece of evidence: its document at its line.
func openFix(e Evidence) Fix {
	return Fix{Action: "open", Label: "Open " + where(e), DocumentID: e.DocumentID, Line: e.LineStart}
}

// docsOf lists the documents of evidence, each once, in order.
func docsOf(evs ...Evidence) []string {
	out := []string{}
	for _, e := range evs {
		if e.DocumentID != "" && !slices.Contains(out, e.DocumentID) {
			out = append(out, e.DocumentID)
		}
	}
	return out
}

// sources is what says who made observations: their documents by ID, and for payloads no
// document holds, each payload's primary entity.
type sources struct {
	docs    map[string]*store.LintDoc
	primary map[string]string
}

// loadSources reads the documents and payload records of observations.
func loadSources(ctx context.Context, env Env, obs []store.LintObservation) (*sources, error) {
	var want, payloads []string
	seen := map[string]bool{}
	capOf := map[string]string{}
	for _, o := range obs {
		if o.DocumentID != "" && !seen[o.DocumentID] {
			seen[o.DocumentID] = true
			want = append(want, o.DocumentID)
		}
		if o.DocumentID == "" && !seen[o.PayloadID] {
			seen[o.PayloadID] = true
			payloads = append(payloads, o.PayloadID)
			capOf[o.PayloadID] = o.Capability
		}
	}
	out := &sources{docs: map[string]*store.LintDoc{}, primary: map[string]string{}}
	if len(want) > 0 {
		list, err := docsByID(ctx, env, want)
		if err != nil {
			return nil, err
		}
		for i := range list {
			out.docs[list[i].DocumentID] = &list[i]
		}
	}
	if len(payloads) > 0 && env.PrimaryType != nil {
		ents, err := store.PayloadEntities(ctx, env.Q, payloads)
		if err != nil {
			return nil, err
		}
		for p, list := range ents {
			typ := env.PrimaryType(capOf[p])
			for _, e := range list {
				if e[1] == typ {
					out.primary[p] = e[0]
					break
				}
			}
		}
	}
	return out, nil
}

// byEntity groups observations (read in entity order) by entity.
func byEntity(obs []store.LintObservation) map[string][]store.LintObservation {
	out := map[string][]store.LintObservation{}
	for _, o := range obs {
		out[o.EntityID] = append(out[o.EntityID], o)
	}
	return out
}

// standing is one source's current word on an entity: its newest observation that still stands,
// with the fields it gives.
type standing struct {
	src    obsSource
	obs    store.LintObservation
	fields map[string]json.RawMessage
}

// currentWords lists each source's newest standing observation of an entity (observations in
// time order), in source-key order. A document's observations stand while their version is
// the document's current one; a payload source's newest observation replaces its older ones.
func currentWords(env Env, obs []store.LintObservation, srcs *sources) ([]standing, error) {
	latest := map[string]standing{}
	for _, o := range obs {
		s := sourceOf(env, o, srcs)
		if s.doc == nil && o.DocumentID == "" {
			s.current = true // an agent's newest word: replaced below by any newer one
		}
		if !s.current {
			continue
		}
		var f map[string]json.RawMessage
		if err := json.Unmarshal(o.Fields, &f); err != nil {
			return nil, fmt.Errorf("observation %s: %w", o.ObservationID, err)
		}
		if prev, ok := latest[s.key]; ok && s.doc != nil {
			// Several standing observations of one version of a document: their fields add up
			// (later ones win a field both give).
			for k, v := range prev.fields {
				if _, has := f[k]; !has {
					f[k] = v
				}
			}
		}
		latest[s.key] = standing{src: s, obs: o, fields: f}
	}
	keys := make([]string, 0, len(latest))
	for k := range latest {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]standing, len(keys))
	for i, k := range keys {
		out[i] = latest[k]
	}
	return out, nil
}

// evidenceOf is where a standing observation is: its document's line stating want, or the
// agent that submitted it.
func evidenceOf(ctx context.Context, env Env, w standing, want []string) (Evidence, error) {
	if w.src.doc == nil {
		return Evidence{Source: w.src.name, Date: w.src.day}, nil
	}
	var sp span
	if len(w.obs.Span) > 0 {
		_ = json.Unmarshal(w.obs.Span, &sp) // a span is our own JSON; an odd one just has no line
	}
	return docEvidence(ctx, env, w.src.doc, sp, want)
}

// subjectSet is a set of subject IDs; nil means every subject.
type subjectSet map[string]bool

func setOf(ids []string) subjectSet {
	if ids == nil {
		return nil
	}
	s := subjectSet{}
	for _, id := range ids {
		s[id] = true
	}
	return s
}

func (s subjectSet) has(id string) bool { return s == nil || s[id] }

// chunkByID reads one chunk with its file lines (ErrNotFound if it is gone).
func chunkByID(ctx context.Context, env Env, id string) (store.Chunk, error) {
	list, err := store.ChunksByID(ctx, env.Q, []string{id})
	if err != nil {
		return store.Chunk{}, err
	}
	if len(list) == 0 {
		return store.Chunk{}, store.ErrNotFound
	}
	return list[0], nil
}
