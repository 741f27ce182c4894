package engine_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// TestAskPersistFilesTheAnswerBack: persist writes the answer as a Markdown file under the
// data folder's generated/answers/, ingests it as the local user's file with origin
// provenance naming the question and the documents it cites, and links its document to each of
// them. Asking again against the same store gives the same answer and the same document, which
// is not created again; the filed answer is searchable but never a passage of an answer, and
// the watcher never reads the data folder.
func TestAskPersistFilesTheAnswerBack(t *testing.T) {
	e, dir := askStore(t)
	ctx := context.Background()
	q := engine.AskRequest{Question: "How much sunlight do tomato plants need?", Persist: true}
	first := ask(t, e, q)
	if first.DocumentID == "" || first.Created == nil || !*first.Created || first.Answer == "" {
		t.Fatalf("first: %+v", first)
	}
	doc, err := e.GetDocumentRow(ctx, first.DocumentID)
	if err != nil {
		t.Fatal(err)
	}
	if !e.IsGenerated(doc.Path) || filepath.Dir(doc.Path) != filepath.Join(e.GeneratedDir(), "answers") ||
		!strings.HasPrefix(filepath.Base(doc.Path), "how-much-sunlight-do-tomato-plants-need-") {
		t.Fatalf("the answer's file: %s", doc.Path)
	}
	if !e.Ignorer().Ignored(doc.Path, false) || !e.Ignorer().Ignored(e.GeneratedDir(), true) {
		t.Fatal("the watcher must never read the generated folder (it is in the data folder)")
	}
	data, err := os.ReadFile(doc.Path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{`title: "How much sunlight do tomato plants need?"`, "# How much sunlight do tomato plants need?",
		first.Answer, "## Sources", "- [1] Tomato growing notes — " + filepath.Join(dir, "tomatoes.md") + ":6-7"} {
		if !strings.Contains(text, want) {
			t.Errorf("the file lacks %q:\n%s", want, text)
		}
	}
	// Origin provenance: asked, with the question and the cited documents.
	prov, err := e.FieldProvenance(ctx, doc.EntityID, "path")
	if err != nil {
		t.Fatal(err)
	}
	var origin struct {
		Source   string   `json:"source"`
		Question string   `json:"question"`
		Cites    []string `json:"cites"`
	}
	if err := json.Unmarshal(prov.SourcePayload.Origin, &origin); err != nil || origin.Source != "ask" || origin.Question != q.Question ||
		len(origin.Cites) == 0 || origin.Cites[0] != first.Citations[0].DocumentID {
		t.Fatalf("origin: %s (%v)", prov.SourcePayload.Origin, err)
	}
	// REFERS_TO from the answer's document to each cited document, with the citation numbers.
	links, err := e.ListRelationships(ctx, engine.RelationshipQuery{EntityID: doc.EntityID, Direction: "outbound", Type: "REFERS_TO"})
	if err != nil {
		t.Fatal(err)
	}
	cited := map[string]bool{}
	for _, c := range first.Citations {
		cited[c.DocumentID] = true
	}
	found := 0
	for _, l := range links.Relationships {
		if cited[l.Target.DocumentID] {
			found++
			var meta struct {
				CitedBy   string `json:"cited_by"`
				Citations []int  `json:"citations"`
			}
			if json.Unmarshal(l.Metadata, &meta); meta.CitedBy != "ask" || len(meta.Citations) == 0 {
				t.Errorf("link metadata: %s", l.Metadata)
			}
		}
	}
	if found != len(cited) {
		t.Fatalf("%d of %d cited documents linked: %+v", found, len(cited), links.Relationships)
	}

	// The answer's document is analysed (searchable), yet asking again cites only the user's
	// documents and gives the same answer, in the same document, not created again.
	settle(t, e, first.DocumentID)
	hits, err := e.Search(ctx, engine.SearchRequest{Query: "sunlight tomato plants"})
	if err != nil {
		t.Fatal(err)
	}
	searchable := false
	for _, h := range hits.Results {
		searchable = searchable || h.DocumentID == first.DocumentID
	}
	if !searchable {
		t.Error("the filed answer is not searchable")
	}
	second := ask(t, e, q)
	if second.Answer != first.Answer || second.DocumentID != first.DocumentID || second.Created == nil || *second.Created {
		t.Fatalf("second ask: %+v\nfirst: %+v", second, first)
	}
	for _, c := range second.Citations {
		if e.IsGenerated(c.Path) {
			t.Fatalf("an answer cites a generated document: %+v", c)
		}
	}
	// A question written differently (case, punctuation, spacing) is the same question.
	third := ask(t, e, engine.AskRequest{Question: "how much SUNLIGHT do tomato plants need", Persist: true})
	if third.DocumentID != first.DocumentID {
		t.Fatalf("the same question is the same file: %s vs %s", third.DocumentID, first.DocumentID)
	}
}

// TestAskPersistNothingToFile: an empty answer is not filed.
func TestAskPersistNothingToFile(t *testing.T) {
	e, _ := askStore(t)
	r := ask(t, e, engine.AskRequest{Question: "zzzzqqq", Persist: true})
	if r.DocumentID != "" || r.Created != nil || !strings.Contains(r.Notice, "nothing was filed") {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(e.GeneratedDir(), "answers")); !os.IsNotExist(err) {
		t.Fatalf("answers folder: %v", err)
	}
}
