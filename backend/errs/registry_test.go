package errs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

var codeShape = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`)

func TestEveryCodeIsRegisteredCompletely(t *testing.T) {
	all := All()
	if len(all) < 30 {
		t.Fatalf("only %d codes registered", len(all))
	}
	for i, c := range all {
		if i > 0 && all[i-1].Name >= c.Name {
			t.Errorf("All() not sorted by name: %s before %s", all[i-1].Name, c.Name)
		}
		if !codeShape.MatchString(c.Name) {
			t.Errorf("%q is not an ALL_CAPS code", c.Name)
		}
		if c.Status < 400 || c.Status > 599 {
			t.Errorf("%s: status %d is not an error status", c.Name, c.Status)
		}
		if c.Meaning == "" || c.Hint == "" || strings.Contains(c.Meaning, "\n") || strings.Contains(c.Hint, "|") {
			t.Errorf("%s: meaning %q, hint %q (one line each, no table pipes)", c.Name, c.Meaning, c.Hint)
		}
		if got, ok := Lookup(c.Name); !ok || got != c {
			t.Errorf("Lookup(%s) = %+v, %v", c.Name, got, ok)
		}
	}
	if _, ok := Lookup("NO_SUCH_CODE"); ok {
		t.Fatal("Lookup found an unregistered code")
	}
}

// The rules the transports used to encode by suffix and by hand now follow from the registry;
// these are the statuses clients already rely on (seed 001 §5 where it names one).
func TestHTTPStatusOfCodes(t *testing.T) {
	for code, want := range map[string]int{
		Validation:          http.StatusBadRequest,
		UnsupportedFileType: http.StatusBadRequest,
		FileTooLarge:        http.StatusBadRequest,
		NotFound:            http.StatusNotFound,
		EntityNotFound:      http.StatusNotFound,
		DocumentNotFound:    http.StatusNotFound,
		FileNotFound:        http.StatusNotFound,
		DBInsertFailed:      http.StatusInternalServerError,
		AnalysisFailed:      http.StatusInternalServerError,
		SearchFailed:        http.StatusInternalServerError,
		Internal:            http.StatusInternalServerError,
		Unauthorized:        http.StatusUnauthorized,
		Forbidden:           http.StatusForbidden,
		ForbiddenOrigin:     http.StatusForbidden,
		ForbiddenPath:       http.StatusForbidden,
		RateLimitExceeded:   http.StatusTooManyRequests,
		EmbedderUnavailable: http.StatusServiceUnavailable,
		"NOT_REGISTERED":    http.StatusInternalServerError, // a bug answers as one
	} {
		if got := HTTPStatus(code); got != want {
			t.Errorf("HTTPStatus(%s) = %d, want %d", code, got, want)
		}
	}
	for _, c := range All() {
		if strings.HasSuffix(c.Name, "_NOT_FOUND") && c.Status != http.StatusNotFound {
			t.Errorf("%s answers %d, not 404", c.Name, c.Status)
		}
		if strings.HasPrefix(c.Name, "DB_") && c.Status != http.StatusInternalServerError {
			t.Errorf("%s answers %d, not 500", c.Name, c.Status)
		}
	}
}

func TestRetryableDecidesByCode(t *testing.T) {
	// A job failing with one of these is marked failed at once: retrying cannot help.
	for _, code := range []string{UnsupportedFileType, AnalysisFailed, FileTooLarge, FileNotFound, Validation, SpecInvalid, ForbiddenPath, DocumentNotFound} {
		if Retryable(New(code, "x")) {
			t.Errorf("%s is retryable", code)
		}
	}
	// These back off and run again.
	for _, code := range []string{DBInsertFailed, DBQueryFailed, Internal, FileUnreadable, ChatFailed, NoChatModel, EmbedderUnavailable, RateLimitExceeded} {
		if !Retryable(fmt.Errorf("job: %w", New(code, "x"))) {
			t.Errorf("%s (wrapped) is not retryable", code)
		}
	}
	if !Retryable(io.ErrUnexpectedEOF) || !Retryable(New("NOT_REGISTERED", "x")) {
		t.Error("an error without a registered code is INTERNAL_ERROR, which is retryable")
	}
	if Retryable(nil) {
		t.Error("nil is retryable")
	}
}

func TestWrapKeepsTheCauseOutOfTheMessage(t *testing.T) {
	cause := fmt.Errorf("listen tcp 127.0.0.1:8765: %w", syscall.EADDRINUSE)
	e := Wrap(AddressInUse, cause, "cannot listen on %s", "127.0.0.1:8765").With("addr", "127.0.0.1:8765")
	if e.Message != "cannot listen on 127.0.0.1:8765" {
		t.Fatalf("message %q", e.Message)
	}
	if e.Details[CauseKey] != cause.Error() || e.Details["addr"] != "127.0.0.1:8765" {
		t.Fatalf("details %v", e.Details)
	}
	if !errors.Is(e, syscall.EADDRINUSE) || !strings.Contains(e.Error(), "address already in use") {
		t.Fatalf("the cause must still unwrap and reach the logs: %v", e)
	}
	var env struct {
		Error struct {
			Message string
			Details map[string]any
		} `json:"error"`
	}
	if err := json.Unmarshal(EnvelopeJSON(e), &env); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(env.Error.Message, "in use") || env.Error.Details[CauseKey] != cause.Error() {
		t.Fatalf("envelope %s", EnvelopeJSON(e))
	}
	if Wrap(Internal, nil, "x").Details != nil {
		t.Fatal("a nil cause adds a detail")
	}
	// An error Strata did not code is wrapped the same way: the cause in details, not the message.
	in := As(io.ErrUnexpectedEOF)
	if in.Code != Internal || strings.Contains(in.Message, "EOF") || in.Details[CauseKey] != io.ErrUnexpectedEOF.Error() {
		t.Fatalf("As(unknown) = %+v", in)
	}
}

func TestEnvelopeFallsBackToTheRegisteredHint(t *testing.T) {
	e := New(DocumentNotFound, "document doc_x does not exist")
	var env Envelope
	if err := json.Unmarshal(EnvelopeJSON(e), &env); err != nil {
		t.Fatal(err)
	}
	want, _ := Lookup(DocumentNotFound)
	if env.Error.Hint != want.Hint || e.Hint != "" {
		t.Fatalf("hint %q (error's own now %q), want the registry's %q without changing the error", env.Error.Hint, e.Hint, want.Hint)
	}
	own := New(DocumentNotFound, "x").WithHint("list them")
	if FromEnvelope(EnvelopeJSON(own)).Hint != "list them" {
		t.Fatal("an error's own hint was replaced")
	}
	if string(EnvelopeJSON(nil)) != `{"error":null}` {
		t.Fatalf("nil: %s", EnvelopeJSON(nil))
	}
}

func TestCauseTextIsOneShortLine(t *testing.T) {
	panicked := Wrap(AnalysisFailed, fmt.Errorf("panic: index out of range\ngoroutine 1 [running]:\nmain.main()"), "the reader failed")
	if panicked.Cause() != "panic: index out of range" || !strings.Contains(panicked.Error(), "goroutine 1") {
		t.Fatalf("cause %q; Error() %q", panicked.Cause(), panicked.Error())
	}
	long := Wrap(Internal, errors.New(strings.Repeat("é", 400)), "x")
	if c := long.Cause(); len(c) > maxCause+len("…") || !strings.HasSuffix(c, "…") || !utf8ValidString(c) {
		t.Fatalf("long cause: %d bytes", len(c))
	}
	inner := New(Validation, "body.amount must be a number").With("field", "body.amount")
	outer := Wrap(AnalysisFailed, inner, "the answer does not fit invoice")
	if outer.Cause() != "body.amount must be a number" || outer.Text() != "the answer does not fit invoice (body.amount must be a number)" {
		t.Fatalf("nested: cause %q, text %q", outer.Cause(), outer.Text())
	}
	if New(Validation, "plain").Text() != "plain" {
		t.Fatal("Text without a cause")
	}
}

func utf8ValidString(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }
