package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/paths"
	"github.com/strata-app/strata/backend/store"
	"github.com/strata-app/strata/backend/watch"
)

// Import is the answer to adding files or folders: each file's result and what the import did,
// counted (Summary). The import is followed after it returns: Status.Imports carries its
// summary again, with the failures analysis finds, until every file is read.
type Import struct {
	ID      string        `json:"id"`
	Results []PathResult  `json:"results"`
	Summary ImportSummary `json:"summary"`
}

// ImportSummary is what an import did, in counts: the one definition of them, which the app,
// `strata ingest` and the API render ("5,000 files: 4,421 added, 579 identical to files
// already here, 12 failed"). Every file looked at is counted once, in one of Added, Updated,
// Unchanged, Moved, Duplicates, Failed or Pending, so they add up to Files; the ignored ones
// are apart. A file is not "added" until its text is read: until then it is Pending.
type ImportSummary struct {
	ID string `json:"id"`
	// Folder is the folder the files came from (the common one, for several paths): the
	// Library filtered to it and to failures shows this import's failed files.
	Folder string `json:"folder,omitempty"`
	Files  int    `json:"files"` // files looked at, not counting the ignored ones
	// Added: new files, read. Updated: files already here whose content changed, read again.
	Added   int `json:"added"`
	Updated int `json:"updated"`
	// Unchanged: already here with the same bytes. Moved: a file already here found at a new
	// path. Duplicates: the same bytes as another file here, not read again. The three are
	// "identical to files already here".
	Unchanged  int `json:"unchanged"`
	Moved      int `json:"moved"`
	Duplicates int `json:"duplicates"`
	// Failed, and FailedBy its error codes: could not be registered or read (an unsupported
	// format, a damaged file, no permission). A failed file that is unchanged counts here.
	Failed   int            `json:"failed"`
	FailedBy map[string]int `json:"failed_by"`
	// Ignored: left out on purpose by the ignore rules (.git, node_modules, hidden and
	// temporary files, .strataignore): files, and folders whose contents were not looked at;
	// Ignored.Assets apart: fonts, images, media, archives, minified code, source maps and
	// search indexes, skipped quietly (not failures).
	Ignored watch.Ignored `json:"ignored"`
	// Pending: new or changed files still being analysed (each becomes added, changed or
	// failed). Finished: none is.
	Pending  int  `json:"pending"`
	Finished bool `json:"finished"`
	// Line is the summary in one line, as the CLI prints it (Line()); the UI renders the
	// counts itself, with a link for the failures.
	Line       string `json:"line"`
	StartedAt  string `json:"started_at"`
	FinishedAt string `json:"finished_at,omitempty"`
}

// Identical is how many files were identical to files already here: unchanged, moved or a
// copy of another file.
func (s ImportSummary) Identical() int { return s.Unchanged + s.Moved + s.Duplicates }

// Text is the summary in one line: "5,000 files: 4,421 added, 579 identical to files already
// here, 12 failed", with how many are still being analysed, then what was ignored.
func (s ImportSummary) Text() string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, thousands(n)+" "+what)
		}
	}
	add(s.Added, "added")
	add(s.Updated, "changed and read again")
	add(s.Identical(), "identical to files already here")
	add(s.Failed, "failed")
	add(s.Pending, "being analysed")
	head := plural(s.Files, "file")
	if s.Files == 0 {
		head = "No files"
	}
	line := head
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, ", ")
	}
	var ign []string
	if s.Ignored.Files > 0 {
		ign = append(ign, plural(s.Ignored.Files, "file"))
	}
	if s.Ignored.Folders > 0 {
		ign = append(ign, plural(s.Ignored.Folders, "folder"))
	}
	if len(ign) > 0 {
		line += "; " + strings.Join(ign, " and ") + " ignored"
	}
	if s.Ignored.Assets > 0 {
		line += "; skipped (assets): " + thousands(s.Ignored.Assets)
	}
	return line
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return thousands(n) + " " + what + "s"
}

// thousands writes n with commas: 5000 → "5,000".
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// summarize counts an import: its registration results, the documents as they stand now (by
// ID; a document missing here counts as registration left it), and what was ignored. started
// is when the import began: a document created before it was already here (Updated, not Added).
func summarize(results []PathResult, docs map[string]store.Document, ignored watch.Ignored, started string) ImportSummary {
	s := ImportSummary{FailedBy: map[string]int{}, Ignored: ignored, StartedAt: started}
	fail := func(code string) {
		s.Failed++
		s.FailedBy[code]++
	}
	for _, r := range results {
		s.Files++
		id := ""
		if r.Result != nil {
			id = r.Result.DocumentID
		}
		if id == "" && r.Error != nil {
			id, _ = r.Error.Details["document_id"].(string)
		}
		d, have := docs[id]
		switch {
		case have && docstate.Status(d.Status) == docstate.Failed:
			code := errs.Internal
			if len(d.LastError) > 0 {
				code = errs.FromEnvelope(d.LastError).Code
			} else if r.Error != nil {
				code = r.Error.Code
			}
			fail(string(code))
		case r.Error != nil || r.Result == nil:
			code := errs.Internal
			if r.Error != nil {
				code = r.Error.Code
			}
			fail(string(code))
		case have && d.DuplicateOf != "":
			s.Duplicates++
		case !r.Result.Created && r.Result.Moved:
			s.Moved++
		case !r.Result.Created:
			s.Unchanged++
		case have && analysing(d):
			s.Pending++
		case have && d.CreatedAt < started:
			s.Updated++
		default:
			s.Added++
		}
	}
	s.Finished = s.Pending == 0
	s.Line = s.Text()
	return s
}

// analysing reports whether d's text is still to be read: the import is not finished with it.
func analysing(d store.Document) bool { return docstate.Status(d.Status) == docstate.Registered }

// commonFolder is the folder all paths are in: a folder path itself, a file's folder.
func commonFolder(list []string, isDir func(string) bool) string {
	var dirs []string
	for _, p := range list {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if !isDir(abs) {
			abs = filepath.Dir(abs)
		}
		dirs = append(dirs, abs)
	}
	if len(dirs) == 0 {
		return ""
	}
	c := dirs[0]
	for _, d := range dirs[1:] {
		for c != d && !paths.Host.Within(d, c) {
			parent := filepath.Dir(c)
			if parent == c {
				break
			}
			c = parent
		}
	}
	return c
}

// keepImports is how many recent imports Status reports (newest first), besides the unfinished.
const keepImports = 8

// importRefresh is how often an unfinished import's documents are read again for Status: the
// window asks every 0.7 s, a browser every second, and a 5,000-file import reads its pending
// documents in ~20 ms.
const importRefresh = time.Second

// importsTracker follows this process's recent imports until their files are read.
type importsTracker struct {
	mu   sync.Mutex
	list []*trackedImport // oldest first
}

type trackedImport struct {
	results   []PathResult
	ignored   watch.Ignored
	folder    string
	docs      map[string]store.Document
	pending   []string
	summary   ImportSummary
	refreshed time.Time
}

// add starts following an import and returns its summary now.
func (t *importsTracker) add(ti *trackedImport, now time.Time) ImportSummary {
	ti.summary = summarize(ti.results, ti.docs, ti.ignored, ti.summary.StartedAt)
	ti.summary.ID, ti.summary.Folder = ti.idOrNew(), ti.folder
	ti.markFinished(now)
	ti.refreshed = now
	for id, d := range ti.docs {
		if analysing(d) {
			ti.pending = append(ti.pending, id)
		}
	}
	sort.Strings(ti.pending)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.list = append(t.list, ti)
	// The oldest finished imports go first; an unfinished one stays until it finishes, so a
	// folder being read is not pushed out by the uploads that follow it.
	for len(t.list) > keepImports {
		k := slices.IndexFunc(t.list, func(x *trackedImport) bool { return x.summary.Finished })
		if k < 0 {
			break
		}
		t.list = slices.Delete(t.list, k, k+1)
	}
	return ti.summary
}

func (ti *trackedImport) idOrNew() string {
	if ti.summary.ID != "" {
		return ti.summary.ID
	}
	id, err := ids.Import()
	if err != nil { // the clock or the random source failed: a time-based ID still tells imports apart
		id = fmt.Sprintf("imp_%d", time.Now().UnixNano())
	}
	return id
}

func (ti *trackedImport) markFinished(now time.Time) {
	if ti.summary.Finished && ti.summary.FinishedAt == "" {
		ti.summary.FinishedAt = store.FormatTime(now)
	}
}

// summaries reads the pending documents of unfinished imports again (at most once per
// importRefresh each) and returns every followed import's summary, newest first.
func (t *importsTracker) summaries(ctx context.Context, q store.Q, now time.Time) ([]ImportSummary, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]ImportSummary, 0, len(t.list))
	for i := len(t.list) - 1; i >= 0; i-- {
		ti := t.list[i]
		if !ti.summary.Finished && now.Sub(ti.refreshed) >= importRefresh {
			docs, err := store.DocumentsByID(ctx, q, ti.pending)
			if err != nil {
				return nil, err
			}
			ti.pending = ti.pending[:0]
			for _, d := range docs {
				ti.docs[d.DocumentID] = d
				if analysing(d) {
					ti.pending = append(ti.pending, d.DocumentID)
				}
			}
			if len(ti.pending) == 0 {
				// The last file is read: every row once more, since reading a file can make an
				// earlier-read one a duplicate of it (the older copy is the original; its
				// analysis settles the pair), and a summary read only as each file finished
				// counted 16 of 99 copies as identical.
				all := make([]string, 0, len(ti.docs))
				for id := range ti.docs {
					all = append(all, id)
				}
				docs, err := store.DocumentsByID(ctx, q, all)
				if err != nil {
					return nil, err
				}
				for _, d := range docs {
					ti.docs[d.DocumentID] = d
				}
			}
			id, folder := ti.summary.ID, ti.summary.Folder
			ti.summary = summarize(ti.results, ti.docs, ti.ignored, ti.summary.StartedAt)
			ti.summary.ID, ti.summary.Folder = id, folder
			ti.markFinished(now)
			ti.refreshed = now
		}
		out = append(out, ti.summary)
	}
	return out, nil
}
