// Package docstate is a document's life cycle: the statuses a document row can hold, the
// events that move it, and the one function, Next, that says where an event leads.
//
// Every write of documents.status goes through Next, so a status the life cycle does not allow
// is an error at the write, not a row the library shows wrongly later (before this package the
// status was a string compared in a dozen places, and a late analysis failure could turn a
// removed document back into a failed one). The tables are plain data (All, Events,
// Transitions) so the UI's types can be generated from them rather than copied by hand.
package docstate

import (
	"errors"
	"fmt"
)

// Status is documents.status.
type Status string

// Statuses. None is a document that is not stored yet (the status before its first write).
const (
	None       Status = ""
	Registered Status = "registered" // a file is stored and hashed; its analysis is queued
	Analyzed   Status = "analyzed"   // its text is chunked and searchable
	Semantic   Status = "semantic"   // a semantic spec has also read it into entities
	Failed     Status = "failed"     // it could not be registered or read; last_error says why
	Removed    Status = "removed"    // the file is gone; its chunks left the index, its history stays
)

// All lists the statuses a stored document can hold, in life-cycle order.
func All() []Status { return []Status{Registered, Analyzed, Semantic, Failed, Removed} }

// Valid reports whether s is a status a stored document can hold.
func (s Status) Valid() bool {
	for _, x := range All() {
		if s == x {
			return true
		}
	}
	return false
}

// Event is something that happens to a document.
type Event string

// Events.
const (
	// FileRegistered: a file was registered, for the first time or with changed content (a new
	// version starts over, whatever became of the old one).
	FileRegistered Event = "file_registered"
	// DuplicateRegistered: a file was registered whose bytes are already extracted at another
	// path that still exists; it is analysed by reference, not read again.
	DuplicateRegistered Event = "duplicate_registered"
	// OriginalSuperseded: an analysed document whose bytes a file that ranks before it (older
	// mtime, or as old with an earlier path) has now read: it becomes a duplicate of that
	// file, its chunks leave the index. It stays analysed, as any duplicate is.
	OriginalSuperseded Event = "original_superseded"
	// RegisterFailed: a file could not be registered (unreadable, too large, unsupported).
	RegisterFailed Event = "register_failed"
	// ContentStored: text was ingested directly; it is chunked in the same transaction.
	ContentStored Event = "content_stored"
	// AnalysisDone: the analyze job wrote the document's chunks.
	AnalysisDone Event = "analysis_done"
	// AnalysisFailed: the analyze job failed for good.
	AnalysisFailed Event = "analysis_failed"
	// SemanticDone: the semantic job wrote what its spec read.
	SemanticDone Event = "semantic_done"
	// SemanticFailed: the semantic job failed for good; the document stays searchable.
	SemanticFailed Event = "semantic_failed"
	// FileRemoved: the file is gone (deleted, or its path given up to a moved file).
	FileRemoved Event = "file_removed"
)

// Events lists every event, in the order of the constants.
func Events() []Event {
	return []Event{FileRegistered, DuplicateRegistered, OriginalSuperseded, RegisterFailed, ContentStored, AnalysisDone, AnalysisFailed,
		SemanticDone, SemanticFailed, FileRemoved}
}

// Transition is one legal move of the life cycle.
type Transition struct {
	From  Status `json:"from"`
	Event Event  `json:"event"`
	To    Status `json:"to"`
}

// ErrIllegal is the error Next wraps when an event may not happen in a status.
var ErrIllegal = errors.New("illegal document status transition")

// anyStored is every status, None included: the events that start a document over.
var anyStored = []Status{None, Registered, Analyzed, Semantic, Failed, Removed}

// table is the life cycle. A pair missing from it is illegal.
var table = func() map[Status]map[Event]Status {
	t := map[Status]map[Event]Status{}
	add := func(from []Status, ev Event, to Status) {
		for _, f := range from {
			if t[f] == nil {
				t[f] = map[Event]Status{}
			}
			t[f][ev] = to
		}
	}
	add(anyStored, FileRegistered, Registered)
	add(anyStored, DuplicateRegistered, Analyzed)
	add(anyStored, RegisterFailed, Failed)
	add([]Status{Analyzed, Semantic}, OriginalSuperseded, Analyzed)
	add([]Status{None}, ContentStored, Analyzed)
	add([]Status{Registered}, AnalysisDone, Analyzed)
	add([]Status{Registered}, AnalysisFailed, Failed)
	add([]Status{Analyzed}, SemanticDone, Semantic)
	add([]Status{Analyzed}, SemanticFailed, Analyzed)
	add([]Status{Semantic}, SemanticFailed, Semantic) // what an earlier run read stays
	add([]Status{Registered, Analyzed, Semantic, Failed}, FileRemoved, Removed)
	// A job that was running when its file was removed may still end: a removed document
	// stays removed (its late result or failure changes nothing).
	// The same holds for a document whose re-registration failed while its older version was
	// being analysed: it stays failed until the file registers again.
	add([]Status{Removed}, AnalysisFailed, Removed)
	add([]Status{Failed}, AnalysisFailed, Failed)
	add([]Status{Removed}, SemanticFailed, Removed)
	return t
}()

// Next returns the status event leads to from from, or an error wrapping ErrIllegal.
func Next(from Status, event Event) (Status, error) {
	if to, ok := table[from][event]; ok {
		return to, nil
	}
	name := string(from)
	if from == None {
		name = "(not stored)"
	}
	return from, fmt.Errorf("%w: %s after %s", ErrIllegal, event, name)
}

// Can reports whether event may happen in status from. Writers of a job's result ask it first
// and retire the job as superseded when the document moved on (removed, failed again) while
// the job ran.
func Can(from Status, event Event) bool {
	_, ok := table[from][event]
	return ok
}

// Transitions lists every legal transition, ordered by the order of All (None first) and then
// of Events, so a generated table is stable.
func Transitions() []Transition {
	var out []Transition
	for _, from := range anyStored {
		for _, ev := range Events() {
			if to, ok := table[from][ev]; ok {
				out = append(out, Transition{From: from, Event: ev, To: to})
			}
		}
	}
	return out
}

// Phase is the state of one phase of a document (phase_register, phase_analyze,
// phase_semantic).
type Phase string

// Phase states.
const (
	PhasePending Phase = "pending" // not reached yet
	PhaseQueued  Phase = "queued"  // a job waits for a worker
	PhaseRunning Phase = "running" // a worker holds the job
	PhaseDone    Phase = "done"
	PhaseSkipped Phase = "skipped" // nothing to do (empty file, duplicate, no spec or no chat model yet)
	PhaseFailed  Phase = "failed"
)

// Phases lists the phase states.
func Phases() []Phase {
	return []Phase{PhasePending, PhaseQueued, PhaseRunning, PhaseDone, PhaseSkipped, PhaseFailed}
}

// The enums below are in the shape Wails binds into TypeScript enums (options.App.EnumBind):
// a slice of {Value, TSName}. They are derived from All, Events and Phases so that the UI's
// types cannot drift from Go.

// StatusEnum is All for Wails' EnumBind.
var StatusEnum = Enum(All())

// EventEnum is Events for Wails' EnumBind.
var EventEnum = Enum(Events())

// PhaseEnum is Phases for Wails' EnumBind.
var PhaseEnum = Enum(Phases())

// Enum lists values for Wails' EnumBind, each with its TypeScript member name, so the UI's
// enumerations are Go's (used for the engine's enumerations too).
func Enum[T ~string](values []T) []struct {
	Value  T
	TSName string
} {
	out := make([]struct {
		Value  T
		TSName string
	}, len(values))
	for i, v := range values {
		out[i].Value, out[i].TSName = v, tsName(string(v))
	}
	return out
}

// tsName turns a value into a TypeScript enum member name: "analysis_done" → "AnalysisDone".
func tsName(s string) string {
	b := make([]byte, 0, len(s))
	up := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c == '-' {
			up = true
			continue
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		b = append(b, c)
		up = false
	}
	return string(b)
}
