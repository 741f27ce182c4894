package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// techDoc is a Markdown page of the kind that filled the Entities screen with noise: link
// anchors, #include, debugger output, example and list addresses, a systemd unit, and an
// address and an amount that only structure (code block, inline code) tells apart from prose.
const techDoc = `# Connecting

Use [` + "`net.connect()`" + `](#netconnectpath-connectlistener) to connect. Questions go to
Grace Hopper <grace@hopper.dev>, or the list majordomo@vger.kernel.org.

` + "```c" + `
#include <stdio.h>
// mail xyz@example.com or ann@corp.dev
` + "```" + `

    (gdb) print x
    $1 = 0

Enable pg_dump@main-cluster.timer on 2024-05-02 with ` + "`price --max $25.00`" + `. See [net]: #net-anchor
`

// TestFactsFromProseOnly ingests a real file and checks that only prose becomes facts: one
// person (the named address), no concept from an anchor or #include (only the heading's), no amount from $1, and
// the person cites the file's own line.
func TestFactsFromProseOnly(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	p := write(t, filepath.Join(t.TempDir(), "net.md"), techDoc)
	res := ingestFile(t, e, p)
	settle(t, e, res.DocumentID)
	waitEnriched(t, e) // concepts come from the TagConceptBridger enrichment, after the analysis
	all, err := e.ListEntities(ctx, engine.AllTypes, "", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range all.Entities {
		if x.EntityType != engine.DocumentType {
			got = append(got, x.EntityType+":"+x.CanonicalName)
		}
	}
	// No concept: nothing comes from the anchor or #include, and the heading "# Connecting"
	// labels a section whose prose never says "connecting" (a heading is a topic only when
	// the document's own text names it).
	// The person is named as the line names them ("Grace Hopper <grace@hopper.dev>").
	if strings.Join(got, ",") != "person:Grace Hopper" {
		t.Fatalf("entities from the page: %v, want only person:Grace Hopper", got)
	}
	s, err := e.GetEntity(ctx, res.EntityIDs[0], "")
	if err != nil {
		t.Fatal(err)
	}
	if f := field(t, s, "amounts"); f != "<missing>" {
		t.Errorf("amounts = %s, want none", f)
	}
	if f := field(t, s, "dates"); f != `["2024-05-02"]` {
		t.Errorf("dates = %s", f)
	}
	people, _ := e.ListEntities(ctx, "person", "grace", 0, 0)
	obs, _ := e.ListObservations(ctx, people.Entities[0].EntityID, 0, 0)
	if !strings.Contains(string(obs.Observations[0].Span), `"line":4`) {
		t.Errorf("person should cite line 4 of the file: %s", obs.Observations[0].Span)
	}
}

// TestListEntitiesLeavesOutDocuments: one document entity per file would bury every other
// entity, so the default list leaves them out; their type, or AllTypes, shows them.
func TestListEntitiesLeavesOutDocuments(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	dir := t.TempDir()
	for _, n := range []string{"a.md", "b.md"} {
		res := ingestFile(t, e, write(t, filepath.Join(dir, n), "# "+n+"\n\nWrite to Ann Lee <ann@lee.dev>.\n"))
		settle(t, e, res.DocumentID)
	}
	count := func(typ string) map[string]int {
		page, err := e.ListEntities(ctx, typ, "", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]int{}
		for _, x := range page.Entities {
			m[x.EntityType]++
		}
		if page.Total != len(page.Entities) {
			t.Errorf("%q: total %d for %d listed", typ, page.Total, len(page.Entities))
		}
		return m
	}
	if m := count(""); m[engine.DocumentType] != 0 || m["person"] != 1 {
		t.Errorf("default list: %v, want no documents and one person", m)
	}
	if m := count(engine.DocumentType); m[engine.DocumentType] != 2 || len(m) != 1 {
		t.Errorf("documents: %v", m)
	}
	if m := count(engine.AllTypes); m[engine.DocumentType] != 2 || m["person"] != 1 {
		t.Errorf("all types: %v", m)
	}
}

// TestIdenticalFilesAreTwoSources: two files with the same bytes, read in one batch, share a
// payload; each is still a source of its own, and the entity's history lists each observation
// once (a repeated ID broke the UI's list and doubled the counts).
func TestIdenticalFilesAreTwoSources(t *testing.T) {
	e := open(t)
	ctx := context.Background()
	dir := t.TempDir()
	text := "# Mount\n\nReport bugs to Karel Zak <kzak@redhat.com>.\n"
	a, b := write(t, filepath.Join(dir, "a", "mount.txt"), text), write(t, filepath.Join(dir, "b", "mount.txt"), text)
	res, err := e.IngestPaths(ctx, local, []string{a, b})
	if err != nil || len(res) != 2 {
		t.Fatal(res, err)
	}
	for _, r := range res {
		settle(t, e, r.Result.DocumentID)
	}
	people, err := e.ListEntities(ctx, "person", "", 0, 0)
	if err != nil || len(people.Entities) != 1 {
		t.Fatalf("people: %+v %v", people, err)
	}
	obs, err := e.ListObservations(ctx, people.Entities[0].EntityID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range obs.Observations {
		if seen[o.ID] {
			t.Errorf("observation %s listed twice", o.ID)
		}
		seen[o.ID] = true
	}
	if len(seen) != 2 {
		t.Errorf("%d distinct observations, want one per file", len(seen))
	}
}
