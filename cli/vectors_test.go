package cli

import (
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/engine"
)

// `strata status` must not say "0/12775 (ready)" of a space nobody is building.
func TestVectorsLineSaysWhatIsTrue(t *testing.T) {
	em := func(status string, done, total int) *engine.EmbeddingStatus {
		return &engine.EmbeddingStatus{Provider: "ollama", Model: "nomic-embed-text", Status: status, Reembed: engine.Reembed{Done: done, Total: total}}
	}
	cases := []struct {
		em   *engine.EmbeddingStatus
		want string
	}{
		{em("building", 10, 40), "10/40 chunks in ollama/nomic-embed-text (building)"},
		{em("ready", 40, 40), "all 40 chunks in ollama/nomic-embed-text"},
		{em("waiting", 0, 12775), "ollama/nomic-embed-text is not being built (0 of 12775 chunks have its vectors; it is built once ollama answers)"},
	}
	for _, c := range cases {
		got := vectorsLine(c.em)
		if got != c.want {
			t.Errorf("vectorsLine(%s %d/%d) = %q, want %q", c.em.Status, c.em.Reembed.Done, c.em.Reembed.Total, got, c.want)
		}
		if strings.Contains(got, "(ready)") {
			t.Errorf("%q says ready", got)
		}
	}
}
