package errs

import (
	"errors"
	"net/http"
	"sort"
)

// Canonical codes: the one place a code's spelling is written. Each is registered below with its
// HTTP status, whether retrying can help, and what it means; the spellings are wire contract
// (seed 001 §8.2): new codes may be added, existing ones are never renamed. A test fails on a
// code written as a string literal anywhere else in the module.
const (
	// Input a caller sent.
	Validation              = "VALIDATION_ERROR"
	UnknownCapability       = "UNKNOWN_CAPABILITY"
	UnsupportedInputKind    = "UNSUPPORTED_INPUT_KIND"
	InvalidRelationshipType = "INVALID_RELATIONSHIP_TYPE"
	CycleDetected           = "CYCLE_DETECTED"
	SpecInvalid             = "SPEC_INVALID"

	// Things that are not there.
	NotFound         = "NOT_FOUND"
	EntityNotFound   = "ENTITY_NOT_FOUND"
	FieldNotFound    = "FIELD_NOT_FOUND"
	DocumentNotFound = "DOCUMENT_NOT_FOUND"
	// SuggestionNotFound and SuggestionDecided: DiscoveryGap's suggestions (accept / dismiss).
	SuggestionNotFound = "SUGGESTION_NOT_FOUND"
	SuggestionDecided  = "SUGGESTION_DECIDED"

	// Files.
	UnsupportedFileType = "UNSUPPORTED_FILE_TYPE"
	AnalysisFailed      = "ANALYSIS_FAILED"
	FileTooLarge        = "FILE_TOO_LARGE"
	FileNotFound        = "FILE_NOT_FOUND"
	FileUnreadable      = "FILE_UNREADABLE"
	Superseded          = "SUPERSEDED"
	// EnrichBudgetExceeded: a document's linking (the enrichments) ran past its time budget.
	EnrichBudgetExceeded = "ENRICH_BUDGET_EXCEEDED"

	// Local models.
	NoChatModel         = "NO_CHAT_MODEL"
	ChatFailed          = "CHAT_FAILED"
	EmbedderUnavailable = "EMBEDDER_UNAVAILABLE"

	// Storage and internals.
	DBInsertFailed = "DB_INSERT_FAILED"
	DBQueryFailed  = "DB_QUERY_FAILED"
	DiskFull       = "DISK_FULL"
	StorageFailed  = "STORAGE_FAILED"
	SearchFailed   = "SEARCH_FAILED"
	Internal       = "INTERNAL_ERROR"

	// Who may call, and how often.
	ForbiddenPath     = "FORBIDDEN_PATH"
	Forbidden         = "FORBIDDEN"
	ForbiddenOrigin   = "FORBIDDEN_ORIGIN"
	Unauthorized      = "UNAUTHORIZED"
	RateLimitExceeded = "RATE_LIMIT_EXCEEDED"
	Cancelled         = "CANCELLED"

	// The program around the engine.
	AddressInUse  = "ADDRESS_IN_USE"
	MCPNotRunning = "MCP_NOT_RUNNING"
	DesktopOnly   = "DESKTOP_ONLY"
	OpenFailed    = "OPEN_FAILED"
	NoDisplay     = "NO_DISPLAY"
	// AutostartFailed: the login item could not be written or removed.
	AutostartFailed = "AUTOSTART_FAILED"
)

// StatusClientClosedRequest is the status of a call its client cancelled. HTTP has none; 499 is
// the one proxies (nginx) log for it, and no client treats it as the server's fault.
const StatusClientClosedRequest = 499

// Code is what the registry knows about one canonical code.
type Code struct {
	Name string
	// Status is the HTTP status a transport answers with.
	Status int
	// Retryable says whether the same call may succeed later without the caller changing
	// anything (a busy database, a model not yet running); a background job that fails with a
	// code that is not retryable is marked failed at once instead of backing off.
	Retryable bool
	// Meaning is one line for the README's table.
	Meaning string
	// Hint is what to do next, used when the error itself carries no more specific hint.
	Hint string
}

// registry holds every code. A code an error carries that is not here is a bug; the test that
// renders the README table and the test that scans the module for literals keep it complete.
var registry = map[string]Code{
	Validation:              {Status: http.StatusBadRequest, Meaning: "the input does not have the expected shape or values", Hint: "fix the input as the message says and send it again"},
	UnknownCapability:       {Status: http.StatusBadRequest, Meaning: "no payload capability has this id", Hint: "`index_status` lists the capabilities Strata knows (`strata status`)"},
	UnsupportedInputKind:    {Status: http.StatusBadRequest, Meaning: "`input_kind` names no kind of input Strata accepts", Hint: "leave `input_kind` out and let Strata classify the input"},
	InvalidRelationshipType: {Status: http.StatusBadRequest, Meaning: "the relationship type is not one Strata knows", Hint: "use one of the types the message lists"},
	CycleDetected:           {Status: http.StatusBadRequest, Meaning: "the relationship would close a cycle in an acyclic type", Hint: "nothing was written; link the entities the other way or with another type"},
	SpecInvalid:             {Status: http.StatusBadRequest, Meaning: "a YAML spec is malformed or inconsistent", Hint: "fix the file and field the details name, then restart Strata"},

	NotFound:         {Status: http.StatusNotFound, Meaning: "the endpoint or method does not exist", Hint: "check the name; the README lists the calls"},
	EntityNotFound:   {Status: http.StatusNotFound, Meaning: "no entity has this id", Hint: "list entities with `entity` action `list`"},
	FieldNotFound:    {Status: http.StatusNotFound, Meaning: "the entity's snapshot has no such field", Hint: "get the entity to see its fields"},
	DocumentNotFound: {Status: http.StatusNotFound, Meaning: "no document has this id", Hint: "list documents with `strata documents`"},
	SuggestionNotFound: {Status: http.StatusNotFound, Meaning: "no suggestion has this id (it may have been retracted when its evidence changed)",
		Hint: "list the open suggestions with `strata suggestions`"},
	SuggestionDecided: {Status: http.StatusConflict, Meaning: "the suggestion was accepted or dismissed already", Hint: "nothing changed; a decision is kept"},

	UnsupportedFileType: {Status: http.StatusBadRequest, Meaning: "Strata cannot read this kind of file", Hint: "convert it to a format the README lists"},
	AnalysisFailed:      {Status: http.StatusInternalServerError, Meaning: "the file was read but could not be analysed (damaged or unusual content)", Hint: "check that the file opens elsewhere; Strata does not retry it until it changes"},
	FileTooLarge:        {Status: http.StatusBadRequest, Meaning: "the file exceeds the size limit", Hint: "raise the limit with --max-file-mb, or split the file"},
	FileNotFound:        {Status: http.StatusNotFound, Meaning: "no file exists at the path", Hint: "check the path; the file may have been moved or deleted"},
	FileUnreadable:      {Retryable: true, Status: http.StatusBadRequest, Meaning: "the file exists but cannot be read (permissions, a lock)", Hint: "check its permissions; Strata retries"},
	EnrichBudgetExceeded: {Status: http.StatusRequestEntityTooLarge, Meaning: "linking one document (the enrichments) ran past its time budget and was stopped; the document is read and searchable, its derived links are left out",
		Hint: "nothing to do for search; a very large or unusual file may be worth splitting. It is linked again when it changes"},
	Superseded: {Status: http.StatusConflict, Meaning: "a newer version of the file replaced this one before the job ran", Hint: "nothing to do: the newer version is processed instead"},

	NoChatModel:         {Retryable: true, Status: http.StatusServiceUnavailable, Meaning: "the semantic phase waits for a local chat model", Hint: "start Ollama and pull a chat model; waiting jobs run when it appears"},
	ChatFailed:          {Retryable: true, Status: http.StatusServiceUnavailable, Meaning: "the local chat model did not answer", Hint: "Strata retries; check that Ollama is running"},
	EmbedderUnavailable: {Retryable: true, Status: http.StatusServiceUnavailable, Meaning: "the semantic embedder (Ollama) is not reachable", Hint: "start Ollama; Strata re-embeds when it returns and searches with the static embedder meanwhile"},

	DBInsertFailed: {Retryable: true, Status: http.StatusInternalServerError, Meaning: "a write to the database failed; nothing was written", Hint: "retry; if it persists, check the disk and the log"},
	DBQueryFailed:  {Retryable: true, Status: http.StatusInternalServerError, Meaning: "a read from the database failed", Hint: "retry; if it persists the database may be damaged"},
	DiskFull:       {Retryable: true, Status: http.StatusInsufficientStorage, Meaning: "the disk holding the data folder is full; nothing was lost, jobs pause until space returns", Hint: "free space or move the data folder with --data"},
	StorageFailed:  {Status: http.StatusInternalServerError, Meaning: "the disk holding the data folder reported an I/O error (write, sync or read)", Hint: "check the disk; move the data folder with --data if it keeps failing"},
	SearchFailed:   {Retryable: true, Status: http.StatusInternalServerError, Meaning: "the search could not be answered", Hint: "retry; if it persists, check the log"},
	Internal:       {Retryable: true, Status: http.StatusInternalServerError, Meaning: "an unexpected failure inside Strata", Hint: "see the log file for details; this is a bug worth reporting"},

	ForbiddenPath:     {Status: http.StatusForbidden, Meaning: "a remote caller asked for a path outside the allowed roots", Hint: "allow its folder with `strata mcp roots add DIR`"},
	Forbidden:         {Status: http.StatusForbidden, Meaning: "the request did not come from this machine, or named another host", Hint: "open Strata at 127.0.0.1"},
	ForbiddenOrigin:   {Status: http.StatusForbidden, Meaning: "a web page from another origin made the request", Hint: "Strata's endpoints accept no requests from other web pages"},
	Unauthorized:      {Status: http.StatusUnauthorized, Meaning: "the bearer token is missing or wrong", Hint: "send `Authorization: Bearer TOKEN`; `strata mcp config --http` prints the token"},
	RateLimitExceeded: {Retryable: true, Status: http.StatusTooManyRequests, Meaning: "too many calls of one tool in a short time", Hint: "wait `retry_after_seconds` and call again"},
	Cancelled:         {Retryable: true, Status: StatusClientClosedRequest, Meaning: "the caller cancelled the call before it finished", Hint: "nothing was half-written; call again"},

	AddressInUse:  {Retryable: true, Status: http.StatusConflict, Meaning: "another program already listens on the address", Hint: "choose another port with --mcp-addr, or stop the other program"},
	MCPNotRunning: {Retryable: true, Status: http.StatusServiceUnavailable, Meaning: "the MCP HTTP endpoint is not running", Hint: "use the stdio configuration, or start `strata serve`"},
	OpenFailed:    {Status: http.StatusBadGateway, Meaning: "the system's opener (xdg-open, open, explorer) could not open the file", Hint: "set a default application for this kind of file, or open it from your file manager"},
	DesktopOnly:   {Status: http.StatusBadRequest, Meaning: "the call needs the desktop app (a native dialog or window)", Hint: "in a browser, upload files or type a folder path"},
	NoDisplay:     {Status: http.StatusServiceUnavailable, Meaning: "no graphical display for the desktop app", Hint: "run `strata serve` and open the printed address in a browser"},
	AutostartFailed: {Status: http.StatusInternalServerError, Meaning: "the login item (an XDG autostart entry, a LaunchAgent or a Run key value) could not be written or removed",
		Hint: "check that the folder named in the message is yours and writable, then try again"},
}

func init() {
	for name, c := range registry {
		c.Name = name
		registry[name] = c
	}
}

// Lookup returns the registered code named name.
func Lookup(name string) (Code, bool) {
	c, ok := registry[name]
	return c, ok
}

// lookupOrInternal treats an unregistered code as INTERNAL_ERROR: a code nobody registered is
// a bug, and a bug answers 500 and may be retried, as any unexpected failure.
func lookupOrInternal(name string) Code {
	if c, ok := registry[name]; ok {
		return c
	}
	return registry[Internal]
}

// HTTPStatus is the status a transport answers for code.
func HTTPStatus(code string) int { return lookupOrInternal(code).Status }

// Retryable reports whether err may go away by itself, so that a job runner backs off and
// tries again rather than marking the work failed. Errors without a code are INTERNAL_ERROR
// (retryable); nil is not an error and not retryable.
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	var e *Error
	if !errors.As(err, &e) {
		return registry[Internal].Retryable
	}
	return lookupOrInternal(e.Code).Retryable
}

// All returns every registered code, sorted by name so tables and tests are deterministic.
func All() []Code {
	out := make([]Code, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
