package ingest

import (
	"context"
	"errors"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/ids"
	"github.com/strata-app/strata/backend/store"
)

// Apply writes a plan in one transaction: the payload and a submission record always; the
// rest only when the payload is new. A failure leaves nothing behind.
func (in *Ingester) Apply(ctx context.Context, p *Plan) (*Result, error) {
	subID, err := ids.Submission()
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err, "could not make a submission ID")
	}
	now := store.FormatTime(in.Now())
	origin := ids.MustMarshal(p.Origin)
	var res *Result
	err = in.DB.WriteTx(ctx, func(tx *store.Tx) error {
		if p.ClientRequestID != "" {
			prev, err := store.SubmissionByClientRequest(ctx, tx, p.ClientRequestID)
			switch {
			case err == nil && prev.PayloadID == p.PayloadID():
				res = p.result(prev.Created, prev.SubmissionID) // a retry of the same call: same answer
				return nil
			case err == nil:
				return errs.New(errs.Validation, "client_request_id %q was already used for different content", p.ClientRequestID).
					WithHint("use a new client_request_id for a new submission")
			case !errors.Is(err, store.ErrNotFound):
				return err
			}
		}
		_, created, err := store.InsertPayload(ctx, tx, store.Payload{PayloadID: p.PayloadID(), PayloadContentID: p.ContentID(), Kind: p.Kind,
			CapabilityID: p.CapabilityID, Body: p.Canonical, Origin: origin, CreatedAt: now})
		if err != nil {
			return err
		}
		if err := store.InsertSubmission(ctx, tx, store.Submission{SubmissionID: subID, PayloadID: p.PayloadID(),
			ClientRequestID: p.ClientRequestID, Created: created, Origin: origin, CreatedAt: now}); err != nil {
			return err
		}
		res = p.result(created, subID)
		if !created {
			return nil
		}
		return in.writeNew(ctx, tx, p, now)
	})
	if err != nil {
		if e := (*errs.Error)(nil); errors.As(err, &e) {
			return nil, e
		}
		return nil, errs.Wrap(errs.DBInsertFailed, err, "could not store the submission").
			WithHint("nothing was written; retry, and if it keeps failing check the data folder's disk space and permissions")
	}
	return res, nil
}

func (in *Ingester) writeNew(ctx context.Context, tx *store.Tx, p *Plan, now string) error {
	if p.Document != nil {
		d := *p.Document
		d.PayloadID, d.CreatedAt, d.UpdatedAt = p.PayloadID(), now, now
		if _, err := store.InsertDocument(ctx, tx, d); err != nil {
			return err
		}
		if err := store.InsertChunks(ctx, tx, p.Chunks); err != nil {
			return err
		}
		if err := in.writeVectors(ctx, tx, p.Chunks, p.Vectors); err != nil {
			return err
		}
	}
	return writeObserved(ctx, tx, p.PayloadID(), p.Entities, p.Relationships, now)
}

// writeObserved writes entities, their new observations (folded into snapshots) and
// relationships; payloadID is the source of those that do not name their own. Observations must be new — their IDs include a new payload's content ID — so
// each table is written with one multi-row statement and each snapshot is read and written once.
func writeObserved(ctx context.Context, tx *store.Tx, payloadID string, planned []PlannedEntity, relationships []store.Relationship, now string) error {
	entities := make([]store.Entity, 0, len(planned))
	observations := make([]store.Observation, 0, len(planned))
	byEntity := map[string][]PlannedEntity{}
	var order []string
	for _, pe := range planned {
		pe.Entity.CreatedAt = now
		if pe.Observation.SourcePayloadID == "" {
			pe.Observation.SourcePayloadID = payloadID
		}
		pe.Observation.CreatedAt = now
		entities = append(entities, pe.Entity)
		observations = append(observations, pe.Observation)
		if _, ok := byEntity[pe.Entity.EntityID]; !ok {
			order = append(order, pe.Entity.EntityID)
		}
		byEntity[pe.Entity.EntityID] = append(byEntity[pe.Entity.EntityID], pe)
	}
	if err := store.UpsertEntities(ctx, tx, entities); err != nil {
		return err
	}
	if err := store.InsertObservations(ctx, tx, observations); err != nil {
		return err
	}
	if err := applyObservations(ctx, tx, order, byEntity, now); err != nil {
		return err
	}
	rels := make([]store.Relationship, 0, len(relationships))
	for _, r := range relationships {
		if r.SourcePayloadID == "" {
			r.SourcePayloadID = payloadID
		}
		r.CreatedAt = now
		// both ends were upserted above in this transaction: only the cycle check remains
		if err := checkCycle(ctx, tx, r); err != nil {
			return err
		}
		rels = append(rels, r)
	}
	return store.InsertRelationships(ctx, tx, rels)
}
