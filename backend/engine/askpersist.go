package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/strata-app/strata/backend/ask"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strata-app/strata/backend/atomicfile"
	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/search"
	"github.com/strata-app/strata/backend/store"
)

// Filing an answer back (persist, ADR-037's compounding): the answer becomes a Markdown file
// under <data>/generated/answers/, ingested like any file the local user adds, so it is
// searchable, has history and shows in the document list; its document entity REFERS_TO the
// documents it cites. The file is named by the question (normalised: case, punctuation and
// spacing do not count), so asking the same question again updates the same document, and it
// holds nothing that changes between two asks of one store (no time): the same answer is the
// same bytes, registration deduplicates them, and the second ask says created: false.
//
// The watcher never sees these files (it skips the data folder), and ask never cites them
// (generated documents are excluded from its passages), so an answer never feeds on itself.

// answersDir is the folder of filed answers under GeneratedDir.
const answersDir = "answers"

// answerCaller is the caller that files answers: the engine itself, on the local user's
// behalf (the answer file is Strata's own, in its data folder).
var answerCaller = LocalUser("ask")

// persistAnswer writes the answer's file, ingests it and links it to the documents it cites.
func (e *Engine) persistAnswer(ctx context.Context, r AskRequest, body string, resp *AskResponse) error {
	dir := filepath.Join(e.GeneratedDir(), answersDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return e.writeErr(fmt.Errorf("create %s: %w", dir, err), "could not create the folder of filed answers")
	}
	path := filepath.Join(dir, answerFileName(r.Question))
	content := answerMarkdown(r.Question, body, resp.Citations)
	if old, err := os.ReadFile(path); err != nil || !bytes.Equal(old, content) {
		if err := atomicfile.Write(path, bytes.NewReader(content), 0o600); err != nil {
			return e.writeErr(fmt.Errorf("write %s: %w", path, err), "could not write the answer's file")
		}
	}
	var cited []string
	citations := map[string][]int{} // cited document → its citation numbers
	for _, c := range resp.Citations {
		if _, ok := citations[c.DocumentID]; !ok {
			cited = append(cited, c.DocumentID)
		}
		citations[c.DocumentID] = append(citations[c.DocumentID], c.N)
	}
	origin := map[string]any{"source": answerCaller.Via(), "question": r.Question, "cites": cited}
	results, err := e.ingestPaths(ctx, answerCaller, []string{path}, origin)
	if err != nil {
		return err
	}
	if len(results) != 1 || results[0].Result == nil {
		if len(results) == 1 && results[0].Error != nil {
			return results[0].Error
		}
		return errs.New(errs.Internal, "filing the answer registered %d files", len(results))
	}
	res := results[0].Result
	resp.DocumentID = res.DocumentID
	created := res.Created
	resp.Created = &created
	doc, err := store.GetDocument(ctx, e.db.Reader(), res.DocumentID)
	if err != nil {
		return queryErr(err, "the answer's document")
	}
	sort.Strings(cited)
	for _, id := range cited {
		d, err := store.GetDocument(ctx, e.db.Reader(), id)
		if err != nil {
			return queryErr(err, "a cited document")
		}
		if d.EntityID == "" || doc.EntityID == "" {
			continue
		}
		meta, err := json.Marshal(map[string]any{"cited_by": "ask", "citations": citations[id]})
		if err != nil {
			return errs.Wrap(errs.Internal, err, "cannot encode a citation")
		}
		if _, err := e.CreateRelationship(ctx, "REFERS_TO", doc.EntityID, d.EntityID, meta); err != nil {
			return err
		}
	}
	return nil
}

// answerFileName names a question's file: its first words as a slug, then a hash of the whole
// normalised question (two questions that start alike are two files).
func answerFileName(question string) string {
	words := search.Words(question)
	norm := strings.Join(words, " ")
	sum := sha256.Sum256([]byte(norm))
	var slug strings.Builder
	for _, w := range words {
		if slug.Len()+len(w) > 60 {
			break
		}
		if slug.Len() > 0 {
			slug.WriteByte('-')
		}
		slug.WriteString(w)
	}
	if slug.Len() == 0 {
		slug.WriteString("answer")
	}
	return slug.String() + "-" + hex.EncodeToString(sum[:])[:12] + ".md"
}

// answerMarkdown is the filed answer: the question as its title, the answer, and its sources
// with their places (path:line or p.N) and quotes.
func answerMarkdown(question, body string, cs []Citation) []byte {
	var b bytes.Buffer
	title, _ := json.Marshal(question) // a JSON string is a YAML string
	fmt.Fprintf(&b, "---\ntitle: %s\ntags: [strata-answer]\n---\n\n# %s\n\n%s\n", title, oneLine(question), body)
	if len(cs) > 0 {
		b.WriteString("\n## Sources\n\n")
		for _, c := range cs {
			fmt.Fprintf(&b, "- [%d] %s — %s: “%s”\n", c.N, oneLine(c.Title), ask.CitePlace(c), oneLine(c.Quote))
		}
	}
	return b.Bytes()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
