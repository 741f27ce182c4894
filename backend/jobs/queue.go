package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/strata-app/strata/backend/store"
)

// Job is one phase of one document version, as the durable queue stores it.
type Job = store.Job

// Queue is the durable queue the runner claims jobs from and keeps their leases in.
type Queue interface {
	// Claim leases up to n runnable jobs to owner until now+lease; none is (nil, nil).
	Claim(ctx context.Context, owner string, now time.Time, lease time.Duration, n int) ([]Job, error)
	// ClaimDocument leases the runnable jobs of one document, wherever they are in the queue;
	// none is (nil, nil).
	ClaimDocument(ctx context.Context, owner, documentID string, now time.Time, lease time.Duration) ([]Job, error)
	// Extend renews owner's leases on jobs until until; a lease owner lost is not an error
	// (the job's new owner writes its result, this one's write will be refused).
	Extend(ctx context.Context, jobs []Job, owner string, until time.Time) error
}

// StoreQueue is the Queue in Strata's SQLite store: every process on a data folder claims
// from the same jobs table, so each job runs once whichever process is up.
type StoreQueue struct{ DB *store.DB }

var _ Queue = StoreQueue{}

// Claim implements Queue.
func (q StoreQueue) Claim(ctx context.Context, owner string, now time.Time, lease time.Duration, n int) ([]Job, error) {
	var jobs []Job
	err := q.DB.WriteTx(ctx, func(tx *store.Tx) error {
		var err error
		jobs, err = store.ClaimJobs(ctx, tx, owner, now, lease, n)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return jobs, err
}

// ClaimDocument implements Queue.
func (q StoreQueue) ClaimDocument(ctx context.Context, owner, documentID string, now time.Time, lease time.Duration) ([]Job, error) {
	var jobs []Job
	err := q.DB.WriteTx(ctx, func(tx *store.Tx) error {
		var err error
		jobs, err = store.ClaimDocumentJobs(ctx, tx, owner, documentID, now, lease)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return jobs, err
}

// Extend implements Queue.
func (q StoreQueue) Extend(ctx context.Context, jobs []Job, owner string, until time.Time) error {
	return q.DB.WriteTx(ctx, func(tx *store.Tx) error {
		for _, j := range jobs {
			if err := store.ExtendLease(ctx, tx, j.JobID, owner, until); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
		}
		return nil
	})
}
