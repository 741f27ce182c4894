package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestDesktopAskAndHealthUnderXvfb: in the real window, a question asked with Ctrl+Enter gets a
// cited answer (the App logs each answer), and the Health screen, opened from the sidebar,
// lists the contradiction between two versions of an invoice. The files are the browser
// test's (tests/e2e/testdata/knowledge); their invoices are read by the semantic phase with
// a stand-in model (invoiceModel) during `strata ingest --wait`, and the window runs without
// one, so its answers are extractive. Screenshots in test-artifacts/desktop-3-*, desktop-4-*.
func TestDesktopAskAndHealthUnderXvfb(t *testing.T) {
	bin := desktopBinary(t)
	tmp := t.TempDir()
	art := artifactsDir(t)
	data := filepath.Join(tmp, "data")
	files := filepath.Join(tmp, "files")
	if err := os.CopyFS(files, os.DirFS(filepath.Join("tests", "e2e", "testdata", "knowledge"))); err != nil {
		t.Fatal(err)
	}
	model := &invoiceModel{}
	srv := httptest.NewServer(model)
	ing := exec.Command(bin, "--data", data, "ingest", "--wait", files)
	ing.Env = desktopEnv(tmp, "OLLAMA_HOST="+srv.URL, "STRATA_CHAT_MODEL=llama3.2")
	out, err := ing.CombinedOutput()
	srv.Close()
	if err != nil || model.chats.Load() != 2 {
		t.Fatalf("ingest (%d chats with the model): %v\n%s", model.chats.Load(), err, out)
	}

	w := openWindow(t, bin, data, desktopEnv(tmp))
	first := w.screenshot(filepath.Join(art, "desktop-3-before-ask.png"))

	w.key("slash")
	time.Sleep(500 * time.Millisecond)
	w.x("type", "--delay", "40", "How many nests did the heron colony have?")
	w.key("ctrl+Return")
	w.waitLog(regexp.MustCompile(`msg=ask question="How many nests did the heron colony have\?" mode=extractive citations=[1-9]`),
		"Ctrl+Enter in the window did not ask with a cited answer", filepath.Join(art, "desktop-3-no-answer.png"))
	time.Sleep(800 * time.Millisecond)
	asked := w.screenshot(filepath.Join(art, "desktop-3-ask.png"))
	if diff := changed(first, asked); diff < 0.02 {
		t.Fatalf("the window did not change after asking (%.3f of pixels)", diff)
	}

	// The sidebar's Health entry (the fifth row: the nav's rows are 39 px apart from y 109, under
	// the window's menu bar; navRow in desktop_background_test.go).
	w.click(80, navRow(4))
	w.waitLog(regexp.MustCompile(`msg=lint kind=contradiction total=[1-9]`), "the Health screen did not open on the contradictions",
		filepath.Join(art, "desktop-4-no-health.png"))
	time.Sleep(800 * time.Millisecond)
	health := w.screenshot(filepath.Join(art, "desktop-4-health.png"))
	if diff := changed(asked, health); diff < 0.05 {
		t.Fatalf("the window did not change to the Health screen (%.3f of pixels)", diff)
	}
}

// invoiceModel stands in for a local Ollama that reads invoices (as tests/e2e/fake-ollama.mjs
// does for the browser test): the semantic phase sends an invoice's numbered chunks, and it
// answers with the fields the text states and the chunk each came from. It refuses any other
// prompt.
type invoiceModel struct{ chats atomic.Int32 }

var (
	invoiceHead   = regexp.MustCompile(`Invoice (INV-\d+) from ([^(\n]+?)\s*(\(|$)`)
	invoiceDate   = regexp.MustCompile(`^Date: (\d{4}-\d{2}-\d{2})`)
	invoiceCust   = regexp.MustCompile(`^Customer: (.+)$`)
	invoiceAmount = regexp.MustCompile(`Amount due: ([A-Z]{3}) ([\d,]+\.\d\d)`)
	chunkMark     = regexp.MustCompile(`^\[chunk (\d+)\]$`)
)

func (m *invoiceModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api/tags":
		io.WriteString(w, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":1}]}`)
	case "/api/chat":
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if len(req.Messages) != 2 || !strings.Contains(req.Messages[0].Content, "You read invoices") {
			http.Error(w, "the stand-in model only reads invoices", http.StatusInternalServerError)
			return
		}
		m.chats.Add(1)
		content, _ := json.Marshal(readInvoice(req.Messages[1].Content))
		json.NewEncoder(w).Encode(map[string]any{"model": req.Model, "created_at": "2025-01-01T00:00:00Z",
			"message": map[string]any{"role": "assistant", "content": string(content)}, "done": true})
	default:
		http.NotFound(w, r)
	}
}

// readInvoice is the fields the chunks state, with "_evidence": the chunk each came from.
func readInvoice(prompt string) map[string]any {
	fields, evidence := map[string]any{}, map[string]int{}
	chunk := 0
	put := func(k string, v any) {
		if _, ok := fields[k]; !ok {
			fields[k], evidence[k] = v, chunk
		}
	}
	for _, line := range strings.Split(prompt, "\n") {
		if c := chunkMark.FindStringSubmatch(line); c != nil {
			chunk, _ = strconv.Atoi(c[1])
			continue
		}
		if h := invoiceHead.FindStringSubmatch(line); h != nil {
			put("invoice_number", h[1])
			put("vendor_name", h[2])
		}
		if d := invoiceDate.FindStringSubmatch(line); d != nil {
			put("date", d[1])
		}
		if c := invoiceCust.FindStringSubmatch(line); c != nil {
			put("customer_name", strings.TrimSpace(c[1]))
		}
		if a := invoiceAmount.FindStringSubmatch(line); a != nil {
			put("currency", a[1])
			n, _ := strconv.ParseFloat(strings.ReplaceAll(a[2], ",", ""), 64)
			put("amount", n)
		}
	}
	fields["_evidence"] = evidence
	return fields
}
