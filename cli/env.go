package cli

import (
	"path/filepath"
	"runtime"
	"strings"

	"github.com/strata-app/strata/backend/engine"
)

// The environment variables Strata reads. They are read here, at the edge, and nowhere under
// backend/ (arch_test.go checks that): the engine takes every setting in its Config, so a test
// that opens an engine behaves the same whatever the developer has exported.
const (
	envHome       = "STRATA_HOME"            // the data folder
	envXDGData    = "XDG_DATA_HOME"          // its parent when STRATA_HOME is unset
	envEmbedder   = "STRATA_EMBEDDER"        // ollama (default) or static
	envEmbedModel = "STRATA_EMBED_MODEL"     // the Ollama embedding model
	envChatModel  = "STRATA_CHAT_MODEL"      // the Ollama chat model of the semantic phase
	envOllamaHost = "OLLAMA_HOST"            // where Ollama listens (as the ollama CLI reads it)
	envRateLimits = "STRATA_MCP_RATE_LIMITS" // "off" lifts MCP rate limits (benchmarks, tests)
	envLog        = "STRATA_LOG"             // "debug": log everything (the Xvfb test reads it)
)

// ConfigFromEnv is the engine configuration the environment asks for: the data folder
// ($STRATA_HOME, else $XDG_DATA_HOME/strata, else ~/.local/share/strata; "" when none can be
// found) and the Ollama settings. getenv is os.Getenv in the real program and a map in tests.
// Flags (--data, --max-file-mb) and the logger are the caller's to add.
func ConfigFromEnv(getenv func(string) string) engine.Config {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	return engine.Config{
		DataDir:    defaultDataDir(get),
		Embedder:   get(envEmbedder),
		EmbedModel: get(envEmbedModel),
		ChatModel:  get(envChatModel),
		OllamaHost: get(envOllamaHost),
	}
}

// defaultDataDir is $STRATA_HOME, else the user data folder (~/.local/share/strata).
func defaultDataDir(get func(string) string) string {
	if d := get(envHome); d != "" {
		return d
	}
	if d := get(envXDGData); d != "" {
		return filepath.Join(d, "strata")
	}
	home := get("HOME")
	if runtime.GOOS == "windows" {
		home = get("USERPROFILE")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "strata")
}

// rateLimitsOff reports whether the environment lifts the MCP server's rate limits.
func rateLimitsOff(getenv func(string) string) bool {
	return strings.TrimSpace(getenv(envRateLimits)) == "off"
}
