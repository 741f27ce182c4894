// Package enrich is Strata's enrichment registry (seed ADR-028): what the store derives by
// itself from what it has read — concepts from tags, entities that keep appearing together,
// documents that say the same thing, things that happened around the same time, and pairs that
// look related while nothing links them.
//
// Enrichments are registered once per store (registry.go), not per request, and react to what
// happens to documents regardless of where the data came from. Each runs as a durable job (the
// ingest runner's "enrich" phase, queued by the store itself whenever a document changes) in a
// transaction of its own after the phases that fed it; it recomputes what it derives about one
// document from the store as it is, and replaces exactly that, so it is incremental (the cost
// is the document's neighbours, not the store), idempotent (a second run writes nothing) and
// deterministic (the same store gives the same links, whatever order it was built in).
//
// What an enrichment derives is kept apart from what a source asserted (store.DerivedLink, not
// store.Relationship), carries its name@version, a score and its evidence, and is retracted
// when that evidence changes or goes.
package enrich

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/store"
)

// MaxDocChunks bounds what linking reads of one document: its first 2,000 chunks (about 2 MB of
// text; the whole Rust book on one page has 1,403). A hostile file — 300,000 headings — is
// searchable whole and linked by its beginning, within its budget, instead of stalling the
// queue (a vector per chunk alone is 300 MB to read).
const MaxDocChunks = 2000

// Emission is a kind of change an enrichment reacts to.
type Emission string

// The emissions. A document's enrich job turns the document's state into emissions: a live
// analysed document is DocumentAnalyzed (and ObservationsWritten once its semantic phase is
// done, or for a text, whose observations come with it); one that was removed, failed, or
// changed and waits to be read again is DocumentRemoved, since its old evidence no longer holds.
const (
	DocumentAnalyzed    Emission = "document.analyzed"
	ObservationsWritten Emission = "observations.written"
	SpaceSwitched       Emission = "space.switched"
	DocumentRemoved     Emission = "document.removed"
)

// Enrichment derives links (or suggestions) about one document at a time.
type Enrichment interface {
	// Name is the enrichment's stable name, as in specs/enrichments.yaml and in each link's
	// "enrichment" field.
	Name() string
	// Version changes whenever what it derives from the same store changes; a new version
	// re-enriches every document.
	Version() string
	// ReactsTo lists the emissions it runs for.
	ReactsTo() []Emission
	// Configure validates and keeps the enrichment's parameters from specs/enrichments.yaml
	// (every key but "enabled"); an unknown or invalid one is an error naming the parameter
	// (ParamError).
	Configure(params map[string]any) error
	// Enrich recomputes what the enrichment derives about run.Doc and replaces it (Run.Replace):
	// for a document that is not live, that is nothing — its links are retracted.
	Enrich(ctx context.Context, run *Run) error
}

// ParamError is a Configure error about one parameter.
type ParamError struct {
	Param   string
	Problem string
}

func (e *ParamError) Error() string { return e.Param + ": " + e.Problem }

// DecodeParams decodes params into dst (a pointer to a struct with json tags holding the
// defaults), refusing keys dst does not have: a typo in the YAML is an error, not a silently
// ignored setting.
func DecodeParams(params map[string]any, dst any) error {
	for _, k := range sortedKeys(params) {
		b, err := json.Marshal(map[string]any{k: params[k]})
		if err != nil {
			return &ParamError{Param: k, Problem: "cannot be read: " + err.Error()}
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(dst); err != nil {
			return &ParamError{Param: k, Problem: "unknown or invalid setting: " + err.Error()}
		}
	}
	return nil
}

// Evidence is one thing a derived link rests on, resolved to where a person can read it.
type Evidence struct {
	Kind          string  `json:"kind"` // chunk | observation | document | vector
	ID            string  `json:"id"`
	DocumentID    string  `json:"document_id,omitempty"`
	Path          string  `json:"path,omitempty"`
	Title         string  `json:"title,omitempty"`
	LineStart     int     `json:"line_start,omitempty"`
	LineEnd       int     `json:"line_end,omitempty"`
	Page          int     `json:"page,omitempty"`
	Quote         string  `json:"quote,omitempty"`
	Score         float64 `json:"score,omitempty"`
	EntityID      string  `json:"entity_id,omitempty"`
	Field         string  `json:"field,omitempty"`
	Value         string  `json:"value,omitempty"`
	ObservationID string  `json:"observation_id,omitempty"`
}

// writer is what a document's run and a group's finish share: the transaction and the
// enrichment whose links they write, and the link ends they changed.
type writer struct {
	Tx    store.Q
	Space string // the vector space that answers searches (its key); "" if none
	Now   string
	Log   *slog.Logger

	name, version string
	changed       int
	// touch hears the ends of every derived link written or deleted, so that a later
	// enrichment revisits exactly the pairs that changed.
	touch func(l store.DerivedLink)
}

// Link builds a derived link of this run's enrichment. Its ID is derived from the enrichment,
// type and ends, so the same link derived twice is the same row; evidence is kept as given
// (the enrichment orders it), evidenceDocs are the documents whose change retracts it.
func (w *writer) Link(typ, source, target string, score float64, evidence []Evidence, evidenceDocs []string, metadata map[string]any) store.DerivedLink {
	l := store.DerivedLink{
		ID:               LinkID(w.name, typ, source, target),
		RelationshipType: typ, SourceEntityID: source, TargetEntityID: target,
		Enrichment: w.name, Version: w.version, Score: round(score),
		Evidence: ids.MustMarshal(orEmpty(evidence)), EvidenceDocs: evidenceDocs,
	}
	if len(metadata) > 0 {
		l.Metadata = ids.MustMarshal(ids.Normalize(metadata))
	}
	return l
}

// LinkID is the ID of the link typ from source to target derived by enrichment.
func LinkID(enrichment, typ, source, target string) string {
	return "rel_" + ids.Hash("derived", enrichment, typ, source, target)[:24]
}

// Replace makes the enrichment's links in scope exactly links (store.ReplaceDerived).
func (w *writer) Replace(ctx context.Context, scope store.LinkScope, links []store.DerivedLink) error {
	scope.Enrichment = w.name
	sort.Slice(links, func(i, j int) bool { return links[i].ID < links[j].ID })
	n, err := store.ReplaceDerivedNoting(ctx, w.Tx, scope, links, w.Now, func(l store.DerivedLink) {
		if w.touch != nil {
			w.touch(l)
		}
	})
	w.changed += n
	return err
}

// Name is the running enrichment's name; Version its version.
func (w *writer) Name() string    { return w.name }
func (w *writer) Version() string { return w.version }

// Changed counts the rows the Replace calls wrote or deleted (0: nothing changed).
func (w *writer) Changed() int { return w.changed }

// Run is one enrichment's run for one document, inside a group's write transaction.
type Run struct {
	writer
	Doc   store.Document // the document as it is now
	Live  bool           // analysed, not removed, failed or waiting to be read again
	Emits []Emission
	// Shared is handed from one enrichment's run to the next ones' for the same job (nil-safe
	// map, fresh per job).
	Shared map[string]any

	// Prepared is what the enrichment's Prepare made of this document on a reader before the
	// transaction (Preparer); nil when it has none or the document changed since.
	Prepared any

	job   *jobState
	group *Group
}

// Preparer is an enrichment with work that depends only on a document's own content (its
// chunks, their texts and vectors): JobHandler has it done on a reader before the group's write
// transaction, so that the transaction holds the write lock only for what reads or writes the
// store's shared state (a 1 MB file's names and text keys take ~100 ms to compute, the lock
// none). A document changed in between is worked out again inside the transaction.
type Preparer interface {
	Prepare(ctx context.Context, p *Prep) (any, error)
}

// Prep is one document to prepare: read it through Q (a reader, outside any transaction).
type Prep struct {
	Q     store.Q
	Doc   store.Document
	Space string
	// Shared is handed from one enrichment's Prepare to the next ones' for the same document.
	Shared map[string]any
}

// prepKey names what an enrichment prepared for a document as it was: the same document read
// again with another content, phase or space is another key.
func prepKey(name string, d store.Document, space string) string {
	return strings.Join([]string{name, d.DocumentID, d.ContentHash, d.UpdatedAt, space}, "\x00")
}

// prepared holds what Prepare made until the document's run takes it; at most maxPrepared
// entries (the oldest go first), so that documents whose jobs went elsewhere cost no memory.
type prepared struct {
	mu    sync.Mutex
	m     map[string]any
	order []string
}

const maxPrepared = 64

func (p *prepared) has(k string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.m[k]
	return ok
}

func (p *prepared) put(k string, v any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]any{}
	}
	if _, ok := p.m[k]; !ok {
		p.order = append(p.order, k)
	}
	p.m[k] = v
	for len(p.order) > maxPrepared {
		delete(p.m, p.order[0])
		p.order = p.order[1:]
	}
}

func (p *prepared) take(k string) any {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.m[k]
	if !ok {
		return nil
	}
	delete(p.m, k)
	p.order = slices.DeleteFunc(p.order, func(x string) bool { return x == k })
	return v
}

// Prepare does the Preparer work of the documents on q, a reader outside the write
// transaction, for the enabled enrichments that will run on each, skipping what is prepared
// already. A document that cannot be read is left to its run.
func (s *Service) Prepare(ctx context.Context, q store.Q, docIDs []string) error {
	space := ""
	if s.SpaceOf != nil {
		var err error
		if space, err = s.SpaceOf(ctx, q); err != nil {
			return err
		}
	}
	for _, id := range docIDs {
		d, err := store.GetDocument(ctx, q, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		live, em := emissions(d)
		if !live {
			continue
		}
		shared := map[string]any{}
		for _, r := range s.list {
			p, ok := r.e.(Preparer)
			if !ok || !r.enabled || !reactsTo(r.e, live, em) {
				continue
			}
			k := prepKey(r.e.Name(), d, space)
			if s.prep.has(k) {
				continue
			}
			v, err := p.Prepare(ctx, &Prep{Q: q, Doc: d, Space: space, Shared: shared})
			if err != nil {
				return errs.Wrap(errs.Internal, err, "enrichment %s could not prepare %s", r.e.Name(), id)
			}
			s.prep.put(k, v)
		}
	}
	return nil
}

// Emitted reports whether the run's emissions include em.
func (r *Run) Emitted(em Emission) bool { return slices.Contains(r.Emits, em) }

// Defer leaves ids under key for the group's finishes, which do once, for every document of
// the group, the work they share (the pairs around an entity many of them mention). Keys are
// shared by the enrichments (DeferMentions: the entities whose mentions changed). What a job
// deferred is dropped if its writes are rolled back.
func (r *Run) Defer(key string, ids ...string) {
	if r.job == nil {
		return
	}
	addTo(r.job.deferred, key, ids)
}

func addTo(m map[string]map[string]bool, key string, ids []string) {
	if m[key] == nil {
		m[key] = map[string]bool{}
	}
	for _, id := range ids {
		m[key][id] = true
	}
}

// Cache is a map the group keeps for the enrichment under key, for what its runs read more
// than once (nil-safe: a run outside a group gets a fresh one).
func (r *Run) Cache(key string) map[string]any {
	if r.group == nil {
		return map[string]any{}
	}
	return r.group.cache(r.name + "\x00" + key)
}

// Touched lists, sorted, the entities at an end of a derived link that this job's runs wrote
// or deleted before now (this run's own included): what changed around the document.
func (r *Run) Touched() []string {
	if r.job == nil {
		return nil
	}
	return touchedOf(r.job.touched, nil)
}

func touchLink(m map[string]map[string]bool, l store.DerivedLink) {
	if m[l.RelationshipType] == nil {
		m[l.RelationshipType] = map[string]bool{}
	}
	m[l.RelationshipType][l.SourceEntityID], m[l.RelationshipType][l.TargetEntityID] = true, true
}

// touchedOf lists, sorted, the ends of links of types (all types if none) in m.
func touchedOf(m map[string]map[string]bool, types []string, more ...map[string]map[string]bool) []string {
	set := map[string]bool{}
	for _, mm := range append([]map[string]map[string]bool{m}, more...) {
		for typ, ends := range mm {
			if len(types) > 0 && !slices.Contains(types, typ) {
				continue
			}
			for id := range ends {
				set[id] = true
			}
		}
	}
	return sortedKeys(set)
}

// Finisher is an enrichment with work its group's documents share: Finish runs once per group,
// after every document of the group was enriched, in registration order.
type Finisher interface {
	Finish(ctx context.Context, f *Finish) error
}

// Warmer is an enrichment that keeps shared state (an index of every document's vector) and
// brings it up to date at the start of each run. Warm does that catching up before a
// document's run starts its time budget: loading the 20,000 document vectors of a store after
// a start takes about a second, which is no document's own work — charged to the first
// document linked, it stopped that document's linking for good on a busy machine
// (ENRICH_BUDGET_EXCEEDED is not retried).
type Warmer interface {
	Warm(ctx context.Context, tx store.Q, space string) error
}

// Finish is one enrichment's shared work for a group.
type Finish struct {
	writer
	group *Group
}

// Deferred lists, sorted, what the group's jobs (those not rolled back) and the finishes before
// this one deferred under key.
func (f *Finish) Deferred(key string) []string {
	set := map[string]bool{}
	for id := range f.group.deferred[key] {
		set[id] = true
	}
	for _, j := range f.group.jobs {
		if j.forgotten {
			continue
		}
		for id := range j.deferred[key] {
			set[id] = true
		}
	}
	return sortedKeys(set)
}

// Defer leaves ids under key for the finishes after this one (Run.Defer).
func (f *Finish) Defer(key string, ids ...string) { addTo(f.group.deferred, key, ids) }

// Touched lists, sorted, the ends of the derived links of types (every type if none) written or
// deleted so far by the group: its jobs' runs and the finishes before this one.
func (f *Finish) Touched(types ...string) []string {
	all := []map[string]map[string]bool{}
	for _, j := range f.group.jobs {
		if !j.forgotten {
			all = append(all, j.touched)
		}
	}
	return touchedOf(f.group.touched, types, all...)
}

// Cache is the group's map for the enrichment under key (Run.Cache).
func (f *Finish) Cache(key string) map[string]any { return f.group.cache(f.name + "\x00" + key) }

// round keeps scores to 4 decimals, so that a float computed in another order (another build
// of the same store) stores the same value.
func round(f float64) float64 {
	const p = 1e4
	if f >= 0 {
		return float64(int64(f*p+0.5)) / p
	}
	return -float64(int64(-f*p+0.5)) / p
}

func orEmpty(e []Evidence) []Evidence {
	if e == nil {
		return []Evidence{}
	}
	return e
}

// specUser is an enrichment that needs the spec registry beyond its own settings
// (TagConceptBridger writes concept observations, typed by specs/entities/concept.yaml).
type specUser interface{ useSpecs(reg *spec.Registry) }

// registered is one enrichment with its merged settings.
type registered struct {
	e            Enrichment
	enabled      bool
	settingsHash string
}

// Service runs the registered enrichments; it is the ingest runner's Enricher.
type Service struct {
	list []registered
	// SpaceOf names the vector space that answers searches now (engine: the recorded active
	// space, else the static one).
	SpaceOf func(ctx context.Context, q store.Q) (string, error)
	Log     *slog.Logger

	prep prepared // Preparer results waiting for their runs
}

// New configures the built-in enrichments (registry.go) from reg's enrichments.yaml settings.
// A setting naming no enrichment, or a parameter an enrichment refuses, is a spec error with
// its file and line: Strata does not start on settings it would silently ignore.
func New(reg *spec.Registry, spaceOf func(ctx context.Context, q store.Q) (string, error), log *slog.Logger) (*Service, error) {
	return newService(reg, builtins(), spaceOf, log)
}

func newService(reg *spec.Registry, list []Enrichment, spaceOf func(ctx context.Context, q store.Q) (string, error), log *slog.Logger) (*Service, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Service{SpaceOf: spaceOf, Log: log}
	known := map[string]bool{}
	for _, e := range list {
		known[e.Name()] = true
		set := reg.Enrichments[e.Name()]
		r := registered{e: e, enabled: true}
		params := map[string]any{}
		if set != nil {
			r.enabled, params = set.Enabled, set.Params
		}
		if u, ok := e.(specUser); ok {
			u.useSpecs(reg)
		}
		if err := e.Configure(params); err != nil {
			var pe *ParamError
			if errors.As(err, &pe) {
				return nil, reg.EnrichmentError(e.Name(), pe.Param, pe.Problem)
			}
			return nil, reg.EnrichmentError(e.Name(), "", err.Error())
		}
		r.settingsHash = ids.Hash(string(ids.MustMarshal(ids.Normalize(params))))[:16]
		s.list = append(s.list, r)
	}
	for _, n := range reg.EnrichmentNames() {
		if !known[n] {
			return nil, reg.EnrichmentError(n, "", fmt.Sprintf("no enrichment is called %q (known: %v)", n, sortedNames(list)))
		}
	}
	return s, nil
}

func sortedNames(list []Enrichment) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Name()
	}
	sort.Strings(out)
	return out
}

// Info describes one registered enrichment.
type Info struct {
	Name     string     `json:"name"`
	Version  string     `json:"version"`
	Enabled  bool       `json:"enabled"`
	ReactsTo []Emission `json:"reacts_to"`
}

// List describes the registered enrichments in the order they run.
func (s *Service) List() []Info {
	out := make([]Info, 0, len(s.list))
	for _, r := range s.list {
		out = append(out, Info{Name: r.e.Name(), Version: r.e.Version(), Enabled: r.enabled, ReactsTo: r.e.ReactsTo()})
	}
	return out
}

// Has reports whether an enrichment of that name is registered.
func (s *Service) Has(name string) bool {
	for _, r := range s.list {
		if r.e.Name() == name {
			return true
		}
	}
	return false
}

// InSync reports whether the store already records every enrichment as the registry has it
// (same version, settings and switch): then Sync would write nothing. It only reads, so a
// process that opens the store to read needs no write lock when nothing changed.
func (s *Service) InSync(ctx context.Context, q store.Q) (bool, error) {
	states, err := store.EnrichmentStates(ctx, q)
	if err != nil {
		return false, err
	}
	for _, r := range s.list {
		st, had := states[r.e.Name()]
		if !had || st.Version != r.e.Version() || st.SettingsHash != r.settingsHash || st.Enabled != r.enabled {
			return false, nil
		}
	}
	return true, nil
}

// Sync brings the store in line with the registry, at open: an enrichment that was switched
// off has its links and open suggestions deleted; one whose version or settings changed (or
// that is new) has every document queued again. It returns how many documents were queued.
func (s *Service) Sync(ctx context.Context, tx store.Q, now string) (int, error) {
	states, err := store.EnrichmentStates(ctx, tx)
	if err != nil {
		return 0, err
	}
	requeue := false
	for _, r := range s.list {
		name := r.e.Name()
		st, had := states[name]
		want := store.EnrichmentState{Name: name, Version: r.e.Version(), SettingsHash: r.settingsHash, Enabled: r.enabled, UpdatedAt: now}
		if had && st.Version == want.Version && st.SettingsHash == want.SettingsHash && st.Enabled == want.Enabled {
			continue
		}
		if !r.enabled {
			n, err := store.DeleteDerivedOf(ctx, tx, name)
			if err != nil {
				return 0, err
			}
			s.Log.Info("enrichment switched off: its derived links removed", "enrichment", name, "removed", n)
		} else if had {
			requeue = true // a new version or new settings: derive again (the first run is queued by migration 0008 / new documents)
		}
		if err := store.PutEnrichmentState(ctx, tx, want); err != nil {
			return 0, err
		}
	}
	if !requeue {
		return 0, nil
	}
	return store.EnqueueEnrichAll(ctx, tx, now)
}

// SpaceSwitched queues every document again when an enabled enrichment reacts to a switch of
// the vector space; call it in the transaction that records the switch.
func (s *Service) SpaceSwitched(ctx context.Context, tx store.Q, now string) (int, error) {
	for _, r := range s.list {
		if r.enabled && slices.Contains(r.e.ReactsTo(), SpaceSwitched) {
			return store.EnqueueEnrichAll(ctx, tx, now)
		}
	}
	return 0, nil
}

// emissions turns a document's state into what happened to it.
func emissions(d store.Document) (live bool, em []Emission) {
	switch d.Status {
	case "analyzed", "semantic":
	default: // registered (changed, to be read again), failed, removed
		return false, []Emission{DocumentRemoved}
	}
	em = []Emission{DocumentAnalyzed}
	if d.PhaseSemantic == "done" || d.Kind == "content" {
		em = append(em, ObservationsWritten)
	}
	return true, em
}

// Group is one write transaction's enrich jobs: the documents are enriched one by one (Enrich),
// then the work they share is done once for all of them (Finish), before the transaction
// commits. A group of one is what `strata enrich run` and the tests use.
type Group struct {
	s        *Service
	tx       store.Q
	now      string
	space    *string
	jobs     map[int64]*jobState
	touched  map[string]map[string]bool // link ends the finishes changed, by link type
	deferred map[string]map[string]bool // what the finishes deferred to later ones
	caches   map[string]map[string]any
	only     string // RunOne: this enrichment alone
}

// jobState is what one job contributed to its group.
type jobState struct {
	deferred  map[string]map[string]bool // key → ids
	touched   map[string]map[string]bool // link type → ends
	forgotten bool
}

// NewGroup starts a group of enrich jobs in tx.
func (s *Service) NewGroup(tx store.Q, now string) *Group {
	return &Group{s: s, tx: tx, now: now, jobs: map[int64]*jobState{}, touched: map[string]map[string]bool{}, deferred: map[string]map[string]bool{},
		caches: map[string]map[string]any{}}
}

func (g *Group) cache(key string) map[string]any {
	c := g.caches[key]
	if c == nil {
		c = map[string]any{}
		g.caches[key] = c
	}
	return c
}

// spaceKey is the vector space of the group's runs, read once.
func (g *Group) spaceKey(ctx context.Context) (string, error) {
	if g.space != nil {
		return *g.space, nil
	}
	space := ""
	if g.s.SpaceOf != nil {
		var err error
		if space, err = g.s.SpaceOf(ctx, g.tx); err != nil {
			return "", err
		}
	}
	g.space = &space
	return space, nil
}

// Warm brings the shared state of every enabled Warmer up to date in the group's transaction
// (before a job's budget starts; see Warmer).
func (g *Group) Warm(ctx context.Context) error {
	space, err := g.spaceKey(ctx)
	if err != nil {
		return err
	}
	for _, r := range g.s.list {
		w, ok := r.e.(Warmer)
		if !ok || (g.only == "" && !r.enabled) || (g.only != "" && r.e.Name() != g.only) {
			continue
		}
		if err := w.Warm(ctx, g.tx, space); err != nil {
			return errs.Wrap(errs.Internal, err, "enrichment %s failed to bring its index up to date", r.e.Name()).With("enrichment", r.e.Name())
		}
	}
	return nil
}

// Forget drops what a job whose writes were rolled back contributed to the group's shared work.
func (g *Group) Forget(job store.Job) {
	if j := g.jobs[job.JobID]; j != nil {
		j.forgotten = true
	}
}

// Enrich runs every enabled enrichment that reacts to what happened to the job's document, in
// registration order (later ones read what earlier ones derived), after retracting whatever
// rested on the document if it is no longer live.
func (g *Group) Enrich(ctx context.Context, job store.Job) error {
	_, err := g.enrich(ctx, job)
	return err
}

func (g *Group) enrich(ctx context.Context, job store.Job) (int, error) {
	d, err := store.GetDocument(ctx, g.tx, job.DocumentID)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil // deleted outright: nothing of it is left to derive from
	}
	if err != nil {
		return 0, err
	}
	live, em := emissions(d)
	if !live && g.only == "" {
		if _, err := store.RetractEvidence(ctx, g.tx, d.DocumentID); err != nil {
			return 0, err
		}
	}
	space, err := g.spaceKey(ctx)
	if err != nil {
		return 0, err
	}
	js := &jobState{deferred: map[string]map[string]bool{}, touched: map[string]map[string]bool{}}
	g.jobs[job.JobID] = js
	shared := map[string]any{}
	changed := 0
	for _, r := range g.s.list {
		if g.only != "" {
			if r.e.Name() != g.only {
				continue
			}
		} else if !r.enabled || !reactsTo(r.e, live, em) {
			continue
		}
		run := &Run{writer: writer{Tx: g.tx, Space: space, Now: g.now, Log: g.s.Log, name: r.e.Name(), version: r.e.Version(),
			touch: func(l store.DerivedLink) { touchLink(js.touched, l) }}, Doc: d, Live: live, Emits: em, Shared: shared, job: js, group: g}
		if _, ok := r.e.(Preparer); ok && live {
			run.Prepared = g.s.prep.take(prepKey(r.e.Name(), d, space))
		}
		if err := r.e.Enrich(ctx, run); err != nil {
			return changed, errs.Wrap(errs.Internal, err, "enrichment %s failed on %s", r.e.Name(), d.DocumentID).With("enrichment", r.e.Name())
		}
		changed += run.changed
	}
	return changed, nil
}

// reactsTo reports whether e runs for a document in this state.
func reactsTo(e Enrichment, live bool, em []Emission) bool {
	if !live && !slices.Contains(e.ReactsTo(), DocumentRemoved) {
		return false
	}
	for _, x := range em {
		if slices.Contains(e.ReactsTo(), x) {
			return true
		}
	}
	return false
}

// Finish does the group's shared work: each enabled enrichment that has some (Finisher), in
// registration order, once for all the group's documents.
func (g *Group) Finish(ctx context.Context) error {
	_, err := g.finish(ctx)
	return err
}

func (g *Group) finish(ctx context.Context) (int, error) {
	space, err := g.spaceKey(ctx)
	if err != nil {
		return 0, err
	}
	changed := 0
	for _, r := range g.s.list {
		fin, ok := r.e.(Finisher)
		if !ok || (g.only == "" && !r.enabled) || (g.only != "" && r.e.Name() != g.only) {
			continue
		}
		f := &Finish{writer: writer{Tx: g.tx, Space: space, Now: g.now, Log: g.s.Log, name: r.e.Name(), version: r.e.Version(),
			touch: func(l store.DerivedLink) { touchLink(g.touched, l) }}, group: g}
		if err := fin.Finish(ctx, f); err != nil {
			return changed, errs.Wrap(errs.Internal, err, "enrichment %s failed on its group's shared work", r.e.Name()).With("enrichment", r.e.Name())
		}
		changed += f.changed
	}
	return changed, nil
}

// Enrich enriches one job's document in a group of its own, its shared work included (as a
// transaction of the job handler with one job).
func (s *Service) Enrich(ctx context.Context, tx store.Q, job store.Job, now string) error {
	g := s.NewGroup(tx, now)
	if err := g.Enrich(ctx, job); err != nil {
		return err
	}
	return g.Finish(ctx)
}

// RunOne runs one enrichment (enabled or not is the caller's concern: `strata enrich run NAME`
// runs it on demand) for one document, its shared work included, as Enrich would; it returns
// the derived rows it changed.
func (s *Service) RunOne(ctx context.Context, tx store.Q, name, documentID, now string) (int, error) {
	if !s.Has(name) {
		return 0, errs.New(errs.Validation, "no enrichment is called %q", name).With("field", "name")
	}
	g := s.NewGroup(tx, now)
	g.only = name
	n, err := g.enrich(ctx, store.Job{DocumentID: documentID})
	if err != nil {
		return n, err
	}
	m, err := g.finish(ctx)
	return n + m, err
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
