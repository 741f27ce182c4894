package engine

import (
	"context"
	"sort"

	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/backend/watch"
)

// Status is `strata status --json`: what the store holds and how it is set up. Later issues add
// the embedder block, jobs and watch roots here.
type Status struct {
	Version       string         `json:"version"`
	DataDir       string         `json:"data_dir"`
	Database      string         `json:"database"`
	SchemaVersion int            `json:"schema_version"`
	Counts        store.Counts   `json:"counts"`
	Capabilities  []string       `json:"capabilities"`
	InputKinds    []InputKind    `json:"input_kinds"` // every shape ingest accepts (seed 000 discovery)
	EntityTypes   []string       `json:"entity_types"`
	Jobs          map[string]int `json:"jobs"`        // by state
	WatchRoots    []string       `json:"watch_roots"` // watched folders
	// WatchFolders are the watched folders with how many asset files (fonts, images, media,
	// archives, minified code, source maps, search indexes) each skipped: not failures.
	WatchFolders []store.WatchFolder `json:"watch_folders"`
	Watching     []watch.RootStatus  `json:"watching,omitempty"`
	Embeddings   *EmbeddingStatus    `json:"embeddings"`
	// Storage says whether the data folder's disk takes writes: "full" (jobs pause until space
	// returns), "failing" (an I/O error) or "ok", with the free space and the error.
	Storage StorageStatus `json:"storage"`
	// Enrichments: each enrichment's state (version, on/off, links, open suggestions) and the
	// backlog of documents waiting to be enriched.
	Enrichments *EnrichStatus `json:"enrichments"`
	// Progress is the work under way, phase by phase, with rates and time left; Imports the
	// recent imports of this process (newest first), each followed until its files are read.
	Progress Progress        `json:"progress"`
	Imports  []ImportSummary `json:"imports"`
	// Background says which process does the folder's background work (watching, reading,
	// linking): this one, another (its pid), or none, when queued work waits for one to start.
	Background Background `json:"background"`
}

// Background is the folder's background worker (owner.go).
type Background struct {
	Running bool `json:"running"`
	Here    bool `json:"here"`
	PID     int  `json:"pid,omitempty"`
}

// Status reports counts and configuration.
func (e *Engine) Status(ctx context.Context) (*Status, error) {
	c, err := store.CountAll(ctx, e.db.ReadDB())
	if err != nil {
		return nil, queryErr(err, "counts")
	}
	v, err := e.db.SchemaVersion(ctx)
	if err != nil {
		return nil, queryErr(err, "the schema version")
	}
	types := make([]string, 0, len(e.specs.EntityTypes))
	for t := range e.specs.EntityTypes {
		types = append(types, t)
	}
	sort.Strings(types)
	byPhase, err := store.JobCounts(ctx, e.db.Reader())
	if err != nil {
		return nil, queryErr(err, "jobs")
	}
	jobs := map[string]int{}
	for _, states := range byPhase {
		for s, n := range states {
			jobs[s] += n
		}
	}
	folders, err := store.WatchFolders(ctx, e.db.Reader())
	roots := make([]string, len(folders))
	for i, f := range folders {
		roots[i] = f.Path
	}
	if err != nil {
		return nil, queryErr(err, "watched folders")
	}
	emb, err := e.EmbeddingStatus(ctx)
	if err != nil {
		return nil, err
	}
	enr, err := e.enrichStatus(ctx, byPhase["enrich"])
	if err != nil {
		return nil, err
	}
	imports, err := e.imports.summaries(ctx, e.db.Reader(), e.now())
	if err != nil {
		return nil, queryErr(err, "the recent imports")
	}
	return &Status{Progress: e.progress.report(e.now(), byPhase), Imports: imports, Enrichments: enr, Embeddings: emb, Version: Version, DataDir: e.cfg.DataDir, Database: e.db.Path(), SchemaVersion: v, Counts: c,
		Capabilities: e.specs.CapabilityIDs(), InputKinds: e.InputKinds(), EntityTypes: types, Jobs: jobs, WatchRoots: roots, WatchFolders: folders, Watching: e.WatchStatus(), Storage: e.StorageStatus(), Background: e.background()}, nil
}
