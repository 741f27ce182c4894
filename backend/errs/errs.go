// Package errs defines Strata's error envelope and canonical error codes.
//
// Every failure that reaches a person or an AI client (GUI, CLI, MCP, HTTP) is an *Error with a
// canonical code, a human message and a hint saying what to do next, so the transports never
// invent error text of their own (DESIGN.md invariant 5, seed 001 §4–5).
//
// Every code is declared once, in registry.go, with its HTTP status, whether retrying can
// help, its meaning and a default hint; the job runner's retry decision, the HTTP statuses,
// the default hint of every envelope and the README's code table all come from there. Tests in
// this package fail on a code spelled as a literal anywhere else in the module, and on a cause
// interpolated into a message (causes go to details["cause"], see Wrap).
package errs

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Error is the one error type transports render. It satisfies error and unwraps to its cause,
// so callers can still use errors.Is on the underlying failure.
type Error struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Hint    string         `json:"hint,omitempty"`
	Details map[string]any `json:"details,omitempty"`
	cause   error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.cause)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.cause }

// New makes an error with a code and a formatted message.
func New(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CauseKey is the detail under which Wrap records the cause's text.
const CauseKey = "cause"

// Wrap makes an error with a code whose cause is err. The message is the caller's sentence
// only; the cause's text goes to Details["cause"] and to Error() (logs), never into Message.
//
// Why details and not only the logs: the person or AI client often needs the cause to act
// ("address already in use", "permission denied"), and Strata answers only callers on this
// machine (stdio, loopback HTTP), the machine whose files and ports the cause describes.
// Why not the message: the message is the stable sentence a client shows or matches; a cause
// pasted into it makes every message unique, repeats the cause in logs (Error() adds it
// again), and hides the one sentence Strata wrote behind a library's wording.
func Wrap(code string, err error, format string, args ...any) *Error {
	e := &Error{Code: code, Message: fmt.Sprintf(format, args...), cause: err}
	if err != nil {
		e.With(CauseKey, causeText(err))
	}
	return e
}

// maxCause bounds the cause kept in details; the whole text (a panic's stack, say) stays in
// Error() for the logs, where its size does not travel with every stored envelope.
const maxCause = 300

// causeText is the first line of err's text, at most maxCause bytes (cut on a rune boundary).
// A cause that is itself an *Error gives its Text, without the code the outer error replaces.
func causeText(err error) string {
	text := err.Error()
	if e, ok := err.(*Error); ok {
		text = e.Text()
	}
	s, _, _ := strings.Cut(text, "\n")
	if len(s) > maxCause {
		s = strings.ToValidUTF8(s[:maxCause], "") + "…"
	}
	return s
}

// Cause returns the cause text Wrap recorded in details ("" when there is none).
func (e *Error) Cause() string {
	s, _ := e.Details[CauseKey].(string)
	return s
}

// Text is the line a person reads: the message and, when there is one, its cause in
// parentheses. Clients that show only the message lose nothing Strata wrote; the cause is
// added for the terminal, where the person can act on "permission denied".
func (e *Error) Text() string {
	if c := e.Cause(); c != "" {
		return e.Message + " (" + c + ")"
	}
	return e.Message
}

// HintOrDefault is the error's own hint or, when it has none, its code's registered hint.
func (e *Error) HintOrDefault() string {
	if e.Hint != "" {
		return e.Hint
	}
	return lookupOrInternal(e.Code).Hint
}

// WithHint sets the hint and returns e for chaining.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// With adds one detail and returns e for chaining.
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// As returns the *Error inside err, or wraps an unknown error as INTERNAL_ERROR so that
// nothing reaches a client without a code.
func As(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return Wrap(Internal, err, "unexpected internal error").WithHint("%s", registry[Internal].Hint)
}

// CodeOf returns the canonical code of err ("" for nil).
func CodeOf(err error) string {
	if err == nil {
		return ""
	}
	return As(err).Code
}

// Envelope is the wire shape of seed 001 §4: {"error": {...}}.
type Envelope struct {
	Error *Error `json:"error"`
}

// EnvelopeJSON renders err as the envelope. An error without a hint of its own gets its code's
// default hint from the registry, so every envelope says what to do next.
func EnvelopeJSON(err error) []byte {
	e := As(err)
	if e != nil && e.Hint == "" {
		c := *e
		c.Hint = e.HintOrDefault()
		e = &c
	}
	b, _ := json.Marshal(Envelope{Error: e}) // only maps of JSON-able values; cannot fail
	return b
}

// FromEnvelope parses a stored envelope back into an *Error (an unreadable one becomes
// INTERNAL_ERROR rather than being dropped).
func FromEnvelope(b []byte) *Error {
	var env Envelope
	if err := json.Unmarshal(b, &env); err != nil || env.Error == nil {
		return &Error{Code: Internal, Message: "unreadable stored error"}
	}
	return env.Error
}
