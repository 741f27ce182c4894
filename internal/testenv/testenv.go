// Package testenv gives tests an engine that does not depend on the machine they run on: the
// static embedder, and an Ollama address nothing listens on, whatever OLLAMA_HOST,
// STRATA_EMBEDDER … the developer has exported and whether a real Ollama runs on its default
// port. A test that wants Ollama starts its own httptest server and sets OllamaHost (and
// Embedder "ollama") itself.
package testenv

import (
	"bytes"
	"os"
	"strings"
	"sync"

	"github.com/strata-app/strata/backend/engine"
)

// UnreachableOllama is a loopback address where nothing listens: port 1 (tcpmux) is
// privileged and unused on the machines Strata runs on, so a dial is refused at once rather
// than timing out, and a probe answers "Ollama is not running" in microseconds.
const UnreachableOllama = "http://127.0.0.1:1"

// EngineConfig is the hermetic configuration of an engine on dir.
func EngineConfig(dir string) engine.Config {
	return engine.Config{DataDir: dir, Embedder: "static", OllamaHost: UnreachableOllama}
}

// Getenv is an environment for the CLI (cli.IO.Getenv): only the "KEY=value" pairs given, plus
// the hermetic Ollama settings unless the pairs set them.
func Getenv(pairs ...string) func(string) string {
	m := map[string]string{"STRATA_EMBEDDER": "static", "OLLAMA_HOST": UnreachableOllama}
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

// Environ is os.Environ for a child strata process, with the hermetic Ollama settings and
// then the pairs given appended (later entries win).
func Environ(pairs ...string) []string {
	return append(os.Environ(), append([]string{"STRATA_EMBEDDER=static", "OLLAMA_HOST=" + UnreachableOllama}, pairs...)...)
}

// LogBuffer is a log sink a test reads while the engine (or a child process's copier) writes to
// it from other goroutines.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Line is the first line written that holds sub ("" when none does).
func (l *LogBuffer) Line(sub string) string {
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.Contains(line, sub) {
			return line
		}
	}
	return ""
}
