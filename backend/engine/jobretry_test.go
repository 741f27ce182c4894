package engine_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/strata-app/strata/backend/engine"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// The job runner asks the errs registry whether a failure may go away: a semantic job whose
// model answers with something that is not JSON fails with CHAT_FAILED (retryable) and runs
// again up to the runner's limit; one whose answer does not fit the spec fails with
// ANALYSIS_FAILED (permanent) after one attempt.
func TestJobRetryFollowsTheRegistry(t *testing.T) {
	for _, c := range []struct {
		answer       string
		code         string
		wantAttempts int
	}{
		{`I would rather not`, errs.ChatFailed, 5}, // ingest.Runner's default MaxAttempts
		{`{"attendees": "everyone", "date": "next week"}`, errs.AnalysisFailed, 1},
	} {
		t.Run(c.code, func(t *testing.T) {
			if want := c.wantAttempts > 1; errs.Retryable(errs.New(c.code, "x")) != want {
				t.Fatalf("the registry says %s retryable=%v; this test expects %v", c.code, !want, want)
			}
			ollama := &fakeOllama{}
			ollama.up.Store(true)
			ollama.answer.Store(c.answer)
			srv := httptest.NewServer(ollama)
			defer srv.Close()
			e := open(t, func(cfg *engine.Config) { cfg.OllamaHost = srv.URL })
			p := write(t, filepath.Join(t.TempDir(), "sync.md"), meetingNotes)
			d := settle(t, e, ingestFile(t, e, p).DocumentID)[0]
			if d.PhaseSemantic != "failed" || errs.FromEnvelope(d.LastError).Code != c.code {
				t.Fatalf("semantic phase %s, last error %s", d.PhaseSemantic, d.LastError)
			}
			if got := semanticAttempts(t, e, d.DocumentID); got != c.wantAttempts {
				t.Fatalf("%s: %d attempt(s), want %d", c.code, got, c.wantAttempts)
			}
		})
	}
}

// semanticAttempts reads the job table the way a second process would.
func semanticAttempts(t *testing.T, e *engine.Engine, documentID string) int {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(e.DataDir(), "strata.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.ReadDB().QueryRowContext(ctx, `SELECT attempts FROM jobs WHERE document_id = ? AND phase = 'semantic'`, documentID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
