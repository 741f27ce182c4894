// Package engine is the one API every transport calls (GUI, CLI, MCP, HTTP). It owns the
// store, the loaded specs and the ingest path; transports hold no logic of their own
// (DESIGN.md invariant 2).
package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-app/strata/backend/answer"
	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/enrich"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ingest"
	"github.com/strata-app/strata/backend/jobs"
	"github.com/strata-app/strata/backend/llm"
	"github.com/strata-app/strata/backend/spec"
	"github.com/strata-app/strata/backend/storage"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/backend/watch"
	"github.com/strata-app/strata/specs"
)

// Version is the Strata version; release builds set it with -ldflags.
var Version = "0.1.0-dev"

// Config opens an engine.
type Config struct {
	DataDir string       // the data folder (required; the CLI picks the default); created if missing
	Logger  *slog.Logger // nil discards
	// Specs replaces the built-in specs (tests); nil uses the embedded specs plus DataDir/specs.
	Specs []spec.Source
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
	// MaxFileBytes limits one file (0 = 200 MB).
	MaxFileBytes int64
	// Workers is the number of job workers (0 = 2); JobLease how long a claimed job is held
	// before another process may take it over (0 = 60 s).
	Workers  int
	JobLease time.Duration
	// ReadTimeout bounds one file's reader (0 = 2 minutes).
	ReadTimeout time.Duration
	// OllamaHost and ChatModel choose the local chat model of the semantic phase (empty:
	// 127.0.0.1:11434 and llama3.2).
	//
	// The engine never reads the environment: the CLI and the desktop main fill these from
	// OLLAMA_HOST, STRATA_EMBEDDER … (cli.ConfigFromEnv), so a test's engine is the same on
	// every machine whatever the developer has exported.
	OllamaHost string
	ChatModel  string
	// Embedder is "ollama" (the default: semantic vectors when Ollama is there, static until
	// then) or "static" (never contact Ollama for vectors). EmbedModel is the Ollama embedding
	// model (empty: nomic-embed-text). ProbeInterval is how often Ollama is probed again
	// (0 = 15 s).
	Embedder      string
	EmbedModel    string
	ProbeInterval time.Duration
	// RootSyncInterval is how often Serve looks for folders another call or process began
	// watching, and reconciles those whose registration has ended (0 = 2 s).
	RootSyncInterval time.Duration
}

// Engine is an open data folder.
type Engine struct {
	cfg    Config
	log    *slog.Logger
	db     *store.DB
	specs  *spec.Registry
	ingest *ingest.Ingester
	runner *jobs.Runner
	chat   *llm.Ollama
	now    func() time.Time

	mu      sync.Mutex
	watcher *watch.Watcher // set while Serve runs

	emb *embedManager

	enrich *enrich.Service

	storage *storage.Monitor // the data folder's disk: full, failing or ok

	expressN atomic.Int32 // saved files being read in the express lane now (serve.go)
	owning   atomic.Bool  // this process does the folder's background work now (owner.go)

	progress *progressTracker // registrations under way and the run's rates (progress.go)
	imports  importsTracker   // recent imports, followed until their files are read (imports.go)

	sources    sourceCache     // files ask read again to cite lines inside a folded paragraph (askcite.go)
	askOptions *answer.Options // replaces the extractive answer's options, for fitting them (TestFitAsk); nil: the defaults
}

// Open opens (creating if needed) the data folder.
func Open(ctx context.Context, cfg Config) (*Engine, error) {
	if cfg.DataDir == "" {
		// The default folder depends on the environment, which only the edge reads.
		return nil, errs.New(errs.Validation, "no data folder given").WithHint("pass --data DIR or set STRATA_HOME")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	abs, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot resolve the data folder %s", cfg.DataDir)
	}
	cfg.DataDir = abs
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, errs.Wrap(errs.Internal, err, "cannot create the data folder %s", abs).WithHint("check the path and its permissions, or pass --data DIR")
	}
	sources := cfg.Specs
	if sources == nil {
		sources = []spec.Source{{Label: "specs", FS: specs.FS}}
		user := filepath.Join(abs, "specs")
		if st, err := os.Stat(user); err == nil && st.IsDir() {
			sources = append(sources, spec.Source{Label: user, FS: os.DirFS(user)})
		}
	}
	reg, err := spec.Load(sources...)
	if err != nil {
		return nil, specErr(err)
	}
	db, err := store.Open(ctx, filepath.Join(abs, "strata.db"))
	if k := storage.Classify(err); k != storage.None {
		return nil, storage.Envelope(k, abs, err)
	}
	if err != nil {
		return nil, errs.Wrap(errs.DBQueryFailed, err, "cannot open the database in %s", abs).
			WithHint("another program may hold it, or the file may be damaged; check permissions and free space")
	}
	chat, err := llm.NewOllama(cfg.OllamaHost, cfg.ChatModel)
	if err != nil {
		db.Close()
		return nil, errs.Wrap(errs.Validation, err, "invalid Ollama address").WithHint("set OLLAMA_HOST to host:port")
	}
	emb, err := newEmbedManager(cfg)
	if err != nil {
		db.Close()
		return nil, err
	}
	in := &ingest.Ingester{DB: db, Specs: reg, Now: cfg.Now, MaxFileBytes: cfg.MaxFileBytes, ReadTimeout: cfg.ReadTimeout, Chat: chat,
		Embedder: emb.static, Generated: generatedIn(abs)}
	if emb.sem != nil {
		in.Reembedder = space{emb.sem}
	}
	e := &Engine{cfg: cfg, log: cfg.Logger, db: db, specs: reg, now: cfg.Now, ingest: in, chat: chat, emb: emb,
		storage: storage.NewMonitor(abs, cfg.Logger, cfg.Now), progress: newProgressTracker()}
	if e.enrich, err = enrich.New(reg, e.enrichSpace, cfg.Logger); err != nil {
		db.Close()
		return nil, specErr(err)
	}
	// Only a changed registry (a new Strata, an edited enrichments.yaml) is written at open:
	// checked on a reader, so opening an unchanged store to read takes no write lock.
	inSync, err := e.enrich.InSync(ctx, db.Reader())
	if err == nil && !inSync {
		err = e.db.WriteTx(ctx, func(tx *store.Tx) error {
			n, err := e.enrich.Sync(ctx, tx, store.FormatTime(e.now()))
			if n > 0 {
				e.log.Info("enrichments changed: every document is enriched again", "documents", n)
			}
			return err
		})
	}
	if err != nil {
		db.Close()
		return nil, errs.Wrap(errs.DBQueryFailed, err, "cannot record the enrichments' state").WithHint("check free space and permissions of the data folder")
	}
	// The reading phases and linking run on one set of workers; linking writes in short
	// transactions of its own (enrich.JobHandler), never inside a reading phase's.
	e.runner = &jobs.Runner{Queue: jobs.StoreQueue{DB: db},
		Handler: jobs.Phases{Default: in.Handler(cfg.Logger), By: map[string]jobs.Handler{
			enrich.Phase: &enrich.JobHandler{Service: e.enrich, DB: db, Now: cfg.Now, Log: cfg.Logger, Yield: e.expressBusy},
		}},
		Clock: jobs.SystemClock(cfg.Now), Retry: errs.Retryable, Workers: cfg.Workers, Lease: cfg.JobLease, Log: cfg.Logger,
		Claimed: e.claimed, Explain: e.explain}
	e.log.Info("engine open", "data", abs, "capabilities", len(reg.Capabilities), "entity_types", len(reg.EntityTypes))
	return e, nil
}

// specErr is the envelope of a spec (or enrichment settings) that does not load.
func specErr(err error) error {
	var se *spec.Error
	if errors.As(err, &se) {
		ee := errs.Wrap(errs.SpecInvalid, err, "%s", se.Error()).With("file", se.File).With("line", se.Line).
			WithHint("fix or remove the spec file; Strata will not start with a broken spec")
		if se.Field != "" {
			ee.With("field", se.Field)
		}
		return ee
	}
	return errs.Wrap(errs.SpecInvalid, err, "cannot load specs")
}

// enrichSpace is the vector space enrichments compare documents in: the recorded active space
// (the semantic one, once complete), else the static one. Unlike a search it does not depend
// on Ollama answering now: derived links are stored, and follow the recorded switch.
func (e *Engine) enrichSpace(ctx context.Context, q store.Q) (string, error) {
	key, err := store.Setting(ctx, q, activeSpaceKey)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if key != "" {
		return key, nil
	}
	return e.emb.static.Space(), nil
}

// Close releases the data folder.
func (e *Engine) Close() error {
	e.closeIndex() // before the database: its background save writes there
	if e.emb.sem != nil {
		_ = e.emb.sem.Close() // stops its worker; it cannot fail
	}
	err := e.db.Close()
	if err == nil {
		err = e.db.TakeCheckpointErr() // a background checkpoint failed and nobody has asked since
	}
	if err == nil {
		return nil
	}
	ee := e.storageFault(err) // logged by the monitor
	switch {
	case ee == nil:
		return fmt.Errorf("close engine: %w", err)
	case ee.Code == errs.DiskFull:
		// Every commit is in the WAL already; only copying it into the database file waits for
		// space. `strata status` on a full disk must still answer (it reports the disk full),
		// and a waited ingest has reported DISK_FULL before it closes (syncStore).
		return nil
	default:
		return ee // a failed sync: what was reported done may not be on the disk
	}
}

// DataDir is the absolute path of the data folder.
func (e *Engine) DataDir() string { return e.cfg.DataDir }

// Specs is the loaded spec registry.
func (e *Engine) Specs() *spec.Registry { return e.specs }

// IngestResult is the answer to every ingest.
type IngestResult = ingest.Result

// Ingest is the one write path: kind is "", "auto", "content", "extract-file", "payload" or a
// capability ID; data is one JSON object. A file_path in data is read only if who may read it
// (see Caller).
func (e *Engine) Ingest(ctx context.Context, who Caller, kind string, data json.RawMessage) (*IngestResult, error) {
	res, err := e.ingest.Ingest(ctx, kind, data, e.pathCheck(who))
	if res != nil && res.InputKind == ingest.KindExtractFile {
		e.runner.Wake()
	}
	if err != nil {
		ee := errs.As(err)
		if se := e.storageFault(err); se != nil {
			return nil, se // logged by the monitor, once per condition
		}
		if ee.Code == errs.DBInsertFailed || ee.Code == errs.Internal {
			e.log.Error("ingest failed", "code", ee.Code, "err", err)
		}
		return nil, ee
	}
	if res.Created {
		e.storage.OK() // a write went through: a full disk has space again
	}
	e.log.Debug("ingest", "caller", who.String(), "kind", res.InputKind, "payload", res.PayloadID, "created", res.Created)
	return res, nil
}

func queryErr(err error, what string) error {
	if e := (*errs.Error)(nil); errors.As(err, &e) {
		return e
	}
	return errs.Wrap(errs.DBQueryFailed, err, "could not read %s", what).WithHint("retry; if it persists the database may be damaged")
}

// pageLimit validates a list's limit and offset: 0 is an omitted limit (the default; wires
// refuse an explicit 0 before it gets here, see limit.go), and no list is unbounded.
func pageLimit(limit, offset int) (int, int, error) {
	const def, maxLimit = 100, 1000
	if limit < 0 || limit > maxLimit {
		return 0, 0, errs.New(errs.Validation, "limit %d is out of range 1–%d", limit, maxLimit).With("field", "limit").
			WithHint("page with limit ≤ %d and offset", maxLimit)
	}
	if offset < 0 {
		return 0, 0, errs.New(errs.Validation, "offset %d is negative", offset).With("field", "offset")
	}
	if limit == 0 {
		limit = def
	}
	return limit, offset, nil
}

var _ fs.FS = specs.FS

// The document life cycle's enumerations (backend/docstate), for transports that hand them to
// the UI: the window's and the bindings generator's Wails EnumBind turn them into TypeScript
// enums, so the UI's statuses and phases are Go's and cannot drift.
var (
	DocumentStatusEnum = docstate.StatusEnum
	DocumentPhaseEnum  = docstate.PhaseEnum
)
