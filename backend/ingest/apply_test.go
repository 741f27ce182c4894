package ingest

import (
	"context"
	"reflect"
	"testing"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// A second submission of the same content answers with the same IDs, created: false, and
// writes only a submission record.
func TestApplyDuplicateIsAnsweredFromThePlan(t *testing.T) {
	in := newIngester(t)
	ctx := context.Background()
	data := `{"transaction_id":"t1","amount":3,"date":"2025-01-01"}`
	first := ingestJSON(t, in, "", data)
	second := ingestJSON(t, in, "", data)
	if !first.Created || second.Created {
		t.Fatalf("created = %v then %v, want true then false", first.Created, second.Created)
	}
	if first.PayloadID != second.PayloadID || !reflect.DeepEqual(first.EntityIDs, second.EntityIDs) ||
		first.PayloadSubmissionID == second.PayloadSubmissionID {
		t.Fatalf("first %+v\nsecond %+v", first, second)
	}
	c, err := store.CountAll(ctx, in.DB.ReadDB())
	if err != nil {
		t.Fatal(err)
	}
	if c.Payloads != 1 || c.Submissions != 2 || c.Observations != 1 {
		t.Fatalf("counts %+v, want 1 payload, 2 submissions, 1 observation", c)
	}
}

// client_request_id makes a retry idempotent and refuses reuse for other content, writing
// nothing in that case.
func TestApplyClientRequestID(t *testing.T) {
	in := newIngester(t)
	ctx := context.Background()
	a := ingestJSON(t, in, "", `{"text":"first note","client_request_id":"r1"}`)
	again := ingestJSON(t, in, "", `{"text":"first note","client_request_id":"r1"}`)
	if again.PayloadSubmissionID != a.PayloadSubmissionID || again.Created != a.Created {
		t.Fatalf("a retry got another answer: %+v vs %+v", again, a)
	}
	_, err := in.Ingest(ctx, "", []byte(`{"text":"other note","client_request_id":"r1"}`), nil)
	wantCode(t, err, errs.Validation)
	c, err := store.CountAll(ctx, in.DB.ReadDB())
	if err != nil {
		t.Fatal(err)
	}
	if c.Payloads != 1 || c.Submissions != 1 {
		t.Fatalf("counts %+v, want 1 payload and 1 submission", c)
	}
}
