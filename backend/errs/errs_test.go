package errs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestUnknownErrorsBecomeInternalEnvelopes(t *testing.T) {
	err := fmt.Errorf("read config: %w", io.ErrUnexpectedEOF)
	e := As(err)
	if e.Code != Internal || e.Hint == "" || !errors.Is(e, io.ErrUnexpectedEOF) {
		t.Fatalf("As(%v) = %+v", err, e)
	}
	var env struct {
		Error struct{ Code, Message, Hint string } `json:"error"`
	}
	if err := json.Unmarshal(EnvelopeJSON(err), &env); err != nil || env.Error.Code != Internal {
		t.Fatalf("envelope: %s %v", EnvelopeJSON(err), err)
	}
	// The cause stays out of the client-facing message but reaches the logs.
	if env.Error.Message == "" || e.Error() == env.Error.Message {
		t.Fatalf("message %q, Error() %q", env.Error.Message, e.Error())
	}
}

func TestWrappedCodesSurvive(t *testing.T) {
	inner := New(EntityNotFound, "entity %s does not exist", "ent_x").With("entity_id", "ent_x").WithHint("list them")
	e := As(fmt.Errorf("get: %w", inner))
	if e != inner || CodeOf(fmt.Errorf("x: %w", inner)) != EntityNotFound || CodeOf(nil) != "" {
		t.Fatalf("code lost through wrapping: %+v", e)
	}
}
