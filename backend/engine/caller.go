package engine

// Caller says on whose behalf the engine reads a file. Every engine call that can read a file
// (Ingest with a file_path, IngestPaths, AddWatchRoot, Retry) takes one as a parameter, and the
// rule follows from it: the local user may read any path they can, a remote client only what
// the local user has shared (watched folders and allowed roots, never the data folder or
// secrets; see checkRemotePath).
//
// It is a parameter, not a context value, so that a new transport cannot forget it: there is
// no way to reach a file without naming a caller. Its zero value is a remote caller with no
// name, so a call site that did not think about trust is denied, not trusted.
type Caller struct {
	local bool
	name  string
}

// LocalUser is the person at this machine: the CLI, the desktop window, or the browser UI that
// holds the token `strata serve` printed. via names the door they came in by, for the logs
// ("cli", "app" for the window and the browser page).
func LocalUser(via string) Caller { return Caller{local: true, name: via} }

// RemoteClient is a program acting on prompts the local user does not see one by one: an AI
// client over MCP (stdio or HTTP). name is what it calls itself ("claude-ai", "cursor"), for
// the logs; it grants nothing.
func RemoteClient(name string) Caller { return Caller{name: name} }

// Local reports whether the caller is the local user.
func (c Caller) Local() bool { return c.local }

// Via is the door the caller came in by, recorded as a file's origin "source" so that a file
// added through the window says "app" and one an AI client added says "mcp:<name>" — the
// provenance panel shows it, and "cli" for everything was not true.
func (c Caller) Via() string {
	switch {
	case c.local && c.name != "":
		return c.name
	case c.local:
		return "local"
	case c.name == "":
		return "mcp"
	default:
		return "mcp:" + c.name
	}
}

// String names the caller in logs: "local:cli", "remote:cursor", "remote:unnamed".
func (c Caller) String() string {
	name := c.name
	if name == "" {
		name = "unnamed"
	}
	if c.local {
		return "local:" + name
	}
	return "remote:" + name
}
