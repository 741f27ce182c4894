package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-app/strata/backend/engine"
)

// corpus is a mixed sequence of inputs touching shared entities.
func corpus() []any {
	var out []any
	for i := 0; i < 30; i++ {
		vendor := []string{"Acme Corp", "Globex", "Initech"}[i%3]
		out = append(out, invoice(fmt.Sprintf("INV-%03d", i%10), vendor, 100+i, fmt.Sprintf("2025-01-%02dT10:00:00Z", 1+i%28),
			map[string]any{"tags": []string{fmt.Sprintf("q%d", i%4)}, "line_items": []any{map[string]any{"description": "Widget", "amount": i}}}))
		out = append(out, map[string]any{"text": fmt.Sprintf("# Note %d\n\nTalked to %s about invoice INV-%03d.", i, vendor, i%10),
			"tags": []string{vendor}, "observed_at": fmt.Sprintf("2025-02-%02dT00:00:00Z", 1+i%28)})
	}
	return out
}

type world struct {
	Entities map[string]*engine.Snapshot
	Lists    []string
}

// capture reads everything observable: every entity snapshot (computed_at dropped) and the
// order of every list.
func capture(t *testing.T, e *engine.Engine) world {
	t.Helper()
	ctx := context.Background()
	w := world{Entities: map[string]*engine.Snapshot{}}
	page, err := e.ListEntities(ctx, engine.AllTypes, "", 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range page.Entities {
		s, err := e.GetEntity(ctx, ent.EntityID, "")
		if err != nil {
			t.Fatal(err)
		}
		s.ComputedAt = ""
		w.Entities[ent.EntityID] = s
		w.Lists = append(w.Lists, ent.EntityID)
		obs, _ := e.ListObservations(ctx, ent.EntityID, 1000, 0)
		for _, o := range obs.Observations {
			w.Lists = append(w.Lists, o.ID)
		}
		rels, _ := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: ent.EntityID, Direction: "both", Limit: 1000, Derived: assertedOnly})
		for _, r := range rels.Relationships {
			w.Lists = append(w.Lists, r.ID)
		}
	}
	return w
}

func TestDeterminismSameInputSameEverything(t *testing.T) {
	run := func() ([]string, world) {
		e := open(t)
		var ids []string
		for _, in := range corpus() {
			r := ingest(t, e, "", in)
			ids = append(ids, r.PayloadID, r.PayloadContentID, r.DocumentID)
			ids = append(ids, r.EntityIDs...)
			ids = append(ids, r.RelationshipIDs...)
		}
		return ids, capture(t, e)
	}
	ids1, w1 := run()
	ids2, w2 := run()
	if !reflect.DeepEqual(ids1, ids2) {
		t.Fatal("same input gave different IDs")
	}
	if !reflect.DeepEqual(w1, w2) {
		t.Fatal("same input gave different snapshots or list order")
	}
	// Same query twice on one store → same order (seed 001 §7.1).
	e := open(t)
	for _, in := range corpus() {
		ingest(t, e, "", in)
	}
	a, b := capture(t, e), capture(t, e)
	if !reflect.DeepEqual(a.Lists, b.Lists) {
		t.Fatal("same query, different order")
	}
}

func TestSnapshotsIndependentOfArrivalOrder(t *testing.T) {
	in := corpus()
	e1 := open(t)
	for _, x := range in {
		ingest(t, e1, "", x)
	}
	shuffled := append([]any(nil), in...)
	rand.New(rand.NewSource(7)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	e2 := open(t)
	for _, x := range shuffled {
		ingest(t, e2, "", x)
	}
	w1, w2 := capture(t, e1), capture(t, e2)
	for id, s1 := range w1.Entities {
		s2 := w2.Entities[id]
		if s2 == nil {
			t.Fatalf("entity %s missing after shuffled ingest", id)
		}
		if !reflect.DeepEqual(s1.Snapshot, s2.Snapshot) || !reflect.DeepEqual(s1.Provenance, s2.Provenance) || s1.ObservationCount != s2.ObservationCount {
			t.Fatalf("entity %s differs with arrival order:\n%s\n%s", id, js(s1.Snapshot), js(s2.Snapshot))
		}
	}
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }

// TestTwoEnginesOneFolder runs two engines (separate connection pools, as two processes would
// have) writing one folder from several goroutines each, all touching one shared entity.
func TestTwoEnginesOneFolder(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	engines := []*engine.Engine{open(t, withDir(dir)), open(t, withDir(dir))}
	const perWorker, workers = 40, 3
	var wg sync.WaitGroup
	errc := make(chan error, len(engines)*workers*perWorker)
	for ei, e := range engines {
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(e *engine.Engine, ei, w int) {
				defer wg.Done()
				for i := 0; i < perWorker; i++ {
					n := fmt.Sprintf("E%d-W%d-%d", ei, w, i)
					in := invoice(n, "Shared Vendor", i, "2025-01-01T00:00:00Z", nil)
					if _, err := e.Ingest(ctx, local, "", mustJSON(t, in)); err != nil {
						errc <- fmt.Errorf("%s: %w", n, err)
					}
					if i%10 == 0 {
						if _, err := e.Status(ctx); err != nil {
							errc <- err
						}
					}
				}
			}(e, ei, w)
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Error(err)
	}
	total := len(engines) * workers * perWorker
	st, err := engines[0].Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Counts.Payloads != total {
		t.Fatalf("payloads %d, want %d", st.Counts.Payloads, total)
	}
	vendor, _ := engines[1].ListEntities(ctx, "company", "Shared Vendor", 1, 0)
	s, err := engines[1].GetEntity(ctx, vendor.Entities[0].EntityID, "")
	if err != nil {
		t.Fatal(err)
	}
	if s.ObservationCount != total {
		t.Fatalf("shared vendor has %d observations, want %d: a snapshot update was lost", s.ObservationCount, total)
	}
}

// TestTwoProcessesOneFolder runs real child processes (this test binary re-executed) that
// ingest into one folder at once; none may see "database is locked".
func TestTwoProcessesOneFolder(t *testing.T) {
	if dir := os.Getenv("STRATA_CHILD_DIR"); dir != "" {
		childIngest(dir, os.Getenv("STRATA_CHILD_NAME"))
		return
	}
	dir := t.TempDir()
	const procs = 3
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		cmds[i] = exec.Command(os.Args[0], "-test.run=^TestTwoProcessesOneFolder$", "-test.count=1")
		cmds[i].Env = append(os.Environ(), "STRATA_CHILD_DIR="+dir, "STRATA_CHILD_NAME=p"+strconv.Itoa(i))
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("child %d: %v", i, err)
		}
	}
	e := open(t, withDir(dir))
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := procs * childCount; st.Counts.Payloads != want {
		t.Fatalf("payloads %d, want %d", st.Counts.Payloads, want)
	}
	vendor, _ := e.ListEntities(context.Background(), "company", "Shared Vendor", 1, 0)
	s, _ := e.GetEntity(context.Background(), vendor.Entities[0].EntityID, "")
	if s.ObservationCount != procs*childCount {
		t.Fatalf("shared entity has %d observations, want %d", s.ObservationCount, procs*childCount)
	}
}

const childCount = 60

func childIngest(dir, name string) {
	ctx := context.Background()
	e, err := engine.Open(ctx, config(dir))
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		os.Exit(3)
	}
	defer e.Close()
	for i := 0; i < childCount; i++ {
		in, _ := json.Marshal(invoice(fmt.Sprintf("%s-%d", name, i), "Shared Vendor", i, time.Now().UTC().Format(time.RFC3339), nil))
		if _, err := e.Ingest(ctx, local, "", in); err != nil {
			fmt.Fprintln(os.Stderr, "child ingest:", err)
			os.Exit(4)
		}
	}
}
