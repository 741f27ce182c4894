package engine

import (
	"bytes"
	"encoding/json"

	"github.com/strata-app/strata/backend/errs"
)

// The page-size rule, the same on every transport (MCP, CLI, HTTP/desktop app):
//
//   - limit omitted: the list's default (100 for lists, 10 for search);
//   - limit given: it must be 1…max; 0 and negatives are VALIDATION_ERROR naming `limit`.
//
// Zero is refused rather than read as "default" because an AI client that sends limit: 0 may
// mean "none" or "all", and silently answering 100 rows hides that misunderstanding; seed 001
// forbids unbounded lists, so "all" is not on offer either.
//
// Go has no "absent" int, so inside the engine 0 is the zero value that an omitted limit decodes
// to, and the Go methods read it as "default". A wire value never reaches them as 0: JSON
// decodes into Limit (whose UnmarshalJSON refuses an explicit 0), and callers that take a plain
// int from their transport (CLI flags, the app's positional arguments) call CheckLimit first.

// Limit is a page size decoded from JSON: omitted (or null) leaves it 0, meaning the default;
// an explicit value below 1 is refused while decoding.
type Limit int

// CheckLimit refuses an explicitly given page size below 1; the upper bound is checked by the
// method called, which knows its own maximum.
func CheckLimit(n int) error {
	if n < 1 {
		return errs.New(errs.Validation, "limit %d is not a page size: give 1 or more, or omit it for the default", n).
			With("field", "limit").WithHint("omit limit for the default page, or page with limit and offset")
	}
	return nil
}

// UnmarshalJSON decodes a given limit, refusing 0 and negatives (see CheckLimit).
func (l *Limit) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		return nil // null is "not given", like omitting the key
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return errs.New(errs.Validation, "limit must be an integer").With("field", "limit")
	}
	if err := CheckLimit(n); err != nil {
		return err
	}
	*l = Limit(n)
	return nil
}
