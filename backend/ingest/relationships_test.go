package ingest

import (
	"context"
	"testing"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

func twoEntities(t *testing.T, in *Ingester) (string, string) {
	t.Helper()
	a := ingestJSON(t, in, "", `{"transaction_id":"t1","amount":3,"date":"2025-01-01"}`)
	b := ingestJSON(t, in, "", `{"transaction_id":"t2","amount":5,"date":"2025-01-02"}`)
	return a.EntityIDs[0], b.EntityIDs[0]
}

func TestCreateRelationship(t *testing.T) {
	in := newIngester(t)
	ctx := context.Background()
	a, b := twoEntities(t, in)
	create := func(typ, src, dst string) (store.Relationship, bool, error) {
		var rel store.Relationship
		var created bool
		err := in.DB.WriteTx(ctx, func(tx *store.Tx) error {
			var err error
			rel, created, err = CreateRelationship(ctx, tx, store.Relationship{RelationshipType: typ, SourceEntityID: src, TargetEntityID: dst})
			return err
		})
		return rel, created, err
	}
	r1, created, err := create("PART_OF", a, b)
	if err != nil || !created {
		t.Fatalf("create: %v (created %v)", err, created)
	}
	r2, created, err := create("PART_OF", a, b)
	if err != nil || created || r2.ID != r1.ID {
		t.Fatalf("repeat: %+v created=%v err=%v, want the stored edge", r2, created, err)
	}
	_, _, err = create("PART_OF", b, a)
	wantCode(t, err, errs.CycleDetected)
	_, _, err = create("DEPENDS_ON", a, a)
	wantCode(t, err, errs.CycleDetected)
	if _, created, err := create("REFERS_TO", b, a); err != nil || !created {
		t.Fatalf("REFERS_TO may point back: %v", err)
	}
	_, _, err = create("LIKES", a, b)
	wantCode(t, err, errs.InvalidRelationshipType)
	_, _, err = create("PART_OF", a, "ent_000000000000000000000000")
	wantCode(t, err, errs.EntityNotFound)
	_, _, err = create("PART_OF", a, "nope")
	wantCode(t, err, errs.Validation)
}
