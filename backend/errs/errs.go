// Package errs defines Strata's error envelope and canonical error codes.
//
// Every failure that reaches a person or an AI client (GUI, CLI, MCP, HTTP) is an *Error with a
// canonical code, a human message and a hint saying what to do next, so the transports never
// invent error text of their own (DESIGN.md invariant 5, seed 001 §4–5).
package errs

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Canonical codes. New codes may be added; existing ones are never renamed (seed 001 §8.2).
const (
	Validation              = "VALIDATION_ERROR"
	UnknownCapability       = "UNKNOWN_CAPABILITY"
	UnsupportedInputKind    = "UNSUPPORTED_INPUT_KIND"
	EntityNotFound          = "ENTITY_NOT_FOUND"
	FieldNotFound           = "FIELD_NOT_FOUND"
	InvalidRelationshipType = "INVALID_RELATIONSHIP_TYPE"
	CycleDetected           = "CYCLE_DETECTED"
	SpecInvalid             = "SPEC_INVALID"
	DBInsertFailed          = "DB_INSERT_FAILED"
	DBQueryFailed           = "DB_QUERY_FAILED"
	Internal                = "INTERNAL_ERROR"
	UnsupportedFileType     = "UNSUPPORTED_FILE_TYPE"
	AnalysisFailed          = "ANALYSIS_FAILED"
	FileTooLarge            = "FILE_TOO_LARGE"
	FileNotFound            = "FILE_NOT_FOUND"
	FileUnreadable          = "FILE_UNREADABLE"
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

// Wrap makes an error with a code whose cause is err; the cause's text stays out of the
// message shown to clients (no internals or PII in envelopes) but remains in logs via Error().
func Wrap(code string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), cause: err}
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
	return &Error{Code: Internal, Message: "unexpected internal error", Hint: "see the log file for details; this is a bug worth reporting", cause: err}
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

// EnvelopeJSON renders err as the envelope.
func EnvelopeJSON(err error) []byte {
	b, _ := json.Marshal(Envelope{Error: As(err)}) // only maps of JSON-able values; cannot fail
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
