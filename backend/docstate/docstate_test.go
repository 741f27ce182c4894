package docstate

import (
	"errors"
	"testing"
)

// TestNext walks every (status, event) pair: the legal ones, written out here independently of
// the table, lead where the life cycle says; every other pair is an error wrapping ErrIllegal
// and leaves the status as it was.
func TestNext(t *testing.T) {
	type pair struct {
		from Status
		ev   Event
	}
	legal := map[pair]Status{}
	for _, s := range []Status{None, Registered, Analyzed, Semantic, Failed, Removed} {
		legal[pair{s, FileRegistered}] = Registered
		legal[pair{s, DuplicateRegistered}] = Analyzed
		legal[pair{s, RegisterFailed}] = Failed
	}
	legal[pair{None, ContentStored}] = Analyzed
	legal[pair{Analyzed, OriginalSuperseded}] = Analyzed
	legal[pair{Semantic, OriginalSuperseded}] = Analyzed
	legal[pair{Registered, AnalysisDone}] = Analyzed
	legal[pair{Registered, AnalysisFailed}] = Failed
	legal[pair{Failed, AnalysisFailed}] = Failed
	legal[pair{Removed, AnalysisFailed}] = Removed
	legal[pair{Analyzed, SemanticDone}] = Semantic
	legal[pair{Analyzed, SemanticFailed}] = Analyzed
	legal[pair{Semantic, SemanticFailed}] = Semantic
	legal[pair{Removed, SemanticFailed}] = Removed
	for _, s := range []Status{Registered, Analyzed, Semantic, Failed} {
		legal[pair{s, FileRemoved}] = Removed
	}

	n := 0
	for _, from := range append([]Status{None}, All()...) {
		for _, ev := range Events() {
			got, err := Next(from, ev)
			want, ok := legal[pair{from, ev}]
			switch {
			case ok && (err != nil || got != want):
				t.Errorf("Next(%q, %s) = %q, %v; want %q", from, ev, got, err, want)
			case !ok && !errors.Is(err, ErrIllegal):
				t.Errorf("Next(%q, %s) = %q, %v; want ErrIllegal", from, ev, got, err)
			case !ok && got != from:
				t.Errorf("illegal Next(%q, %s) changed the status to %q", from, ev, got)
			case Can(from, ev) != ok:
				t.Errorf("Can(%q, %s) = %v, want %v", from, ev, !ok, ok)
			}
			if ok {
				n++
			}
		}
	}
	if n != len(legal) || len(Transitions()) != len(legal) {
		t.Fatalf("%d legal pairs found, %d transitions listed, %d expected", n, len(Transitions()), len(legal))
	}
}

// A status outside the life cycle (a row written by hand, a future version) allows nothing.
func TestNextUnknownStatus(t *testing.T) {
	if _, err := Next("archived", FileRemoved); !errors.Is(err, ErrIllegal) {
		t.Fatalf("want ErrIllegal, got %v", err)
	}
	if Status("archived").Valid() || None.Valid() || !Removed.Valid() {
		t.Fatal("Valid is wrong")
	}
}

// Every status but None is reachable, and every event is legal somewhere.
func TestTransitionsCoverEverything(t *testing.T) {
	reached := map[Status]bool{}
	used := map[Event]bool{}
	for _, tr := range Transitions() {
		reached[tr.To] = true
		used[tr.Event] = true
	}
	for _, s := range All() {
		if !reached[s] {
			t.Errorf("status %s is unreachable", s)
		}
	}
	for _, e := range Events() {
		if !used[e] {
			t.Errorf("event %s is never legal", e)
		}
	}
}

// The Wails enums carry every value under a TypeScript name.
func TestEnums(t *testing.T) {
	if len(StatusEnum) != len(All()) || StatusEnum[0].Value != Registered || StatusEnum[0].TSName != "Registered" {
		t.Fatalf("status enum %+v", StatusEnum)
	}
	if got := EventEnum[len(EventEnum)-1]; got.Value != FileRemoved || got.TSName != "FileRemoved" {
		t.Fatalf("event enum ends with %+v", got)
	}
	if len(PhaseEnum) != len(Phases()) {
		t.Fatalf("phase enum %+v", PhaseEnum)
	}
}
