package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Job is one phase of one document version.
type Job struct {
	JobID      int64           `json:"job_id"`
	DocumentID string          `json:"document_id"`
	PayloadID  string          `json:"payload_id"`
	Phase      string          `json:"phase"`
	State      string          `json:"state"`
	Attempts   int             `json:"attempts"`
	NotBefore  string          `json:"not_before"`
	LeaseOwner string          `json:"lease_owner,omitempty"`
	LeaseUntil string          `json:"lease_until,omitempty"`
	Error      json.RawMessage `json:"error,omitempty"`
	CreatedAt  string          `json:"created_at"`
	UpdatedAt  string          `json:"updated_at"`
}

// Job states.
const (
	JobQueued  = "queued"
	JobRunning = "running"
	JobDone    = "done"
	JobFailed  = "failed"
	JobSkipped = "skipped"
)

const jobCols = `job_id, document_id, payload_id, phase, state, attempts, not_before, coalesce(lease_owner,''), coalesce(lease_until,''), error, created_at, updated_at`

func scanJob(sc interface{ Scan(...any) error }) (Job, error) {
	var j Job
	var e sql.NullString
	err := sc.Scan(&j.JobID, &j.DocumentID, &j.PayloadID, &j.Phase, &j.State, &j.Attempts, &j.NotBefore, &j.LeaseOwner, &j.LeaseUntil, &e, &j.CreatedAt, &j.UpdatedAt)
	if e.Valid {
		j.Error = json.RawMessage(e.String)
	}
	return j, err
}

// EnqueueJob queues a phase of a document version. A finished job for the same version and
// phase (done, failed, skipped — e.g. a file changed and changed back, or a retry) is re-armed;
// a queued or running one is left alone, so enqueueing is idempotent.
func EnqueueJob(ctx context.Context, q Q, documentID, payloadID, phase, state, now string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO jobs(document_id, payload_id, phase, state, not_before, created_at, updated_at)
		VALUES (?,?,?,?,?,?,?) ON CONFLICT(document_id, phase, payload_id) DO UPDATE SET
			state = excluded.state, attempts = 0, not_before = excluded.not_before, error = NULL,
			lease_owner = NULL, lease_until = NULL, updated_at = excluded.updated_at
		WHERE jobs.state NOT IN ('queued', 'running')`, documentID, payloadID, phase, state, now, now, now)
	if err != nil {
		return fmt.Errorf("enqueue %s job: %w", phase, err)
	}
	return nil
}

// ClaimJobs leases up to n runnable jobs, oldest first: queued and due, or running with an
// expired lease (their worker died). Enrich jobs are claimed only when no other job is
// runnable: they read what the other phases write, so a folder is read first and linked after,
// in batches of its own. It returns ErrNotFound when there is nothing to do.
func ClaimJobs(ctx context.Context, q Q, owner string, now time.Time, lease time.Duration, n int) ([]Job, error) {
	jobs, err := claimable(ctx, q, `phase != 'enrich'`, now, n)
	if err == nil && len(jobs) == 0 {
		jobs, err = claimable(ctx, q, `phase = 'enrich'`, now, n)
	}
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, ErrNotFound
	}
	return leaseJobs(ctx, q, jobs, owner, now, lease)
}

// claimable reads up to n runnable jobs matching phaseCond, oldest first.
func claimable(ctx context.Context, q Q, phaseCond string, now time.Time, n int) ([]Job, error) {
	ts := FormatTime(now)
	rows, err := q.QueryContext(ctx, `SELECT `+jobCols+` FROM jobs
		WHERE `+phaseCond+` AND ((state = 'queued' AND not_before <= ?) OR (state = 'running' AND lease_until < ?))
		ORDER BY not_before, job_id LIMIT ?`, ts, ts, n)
	if err != nil {
		return nil, fmt.Errorf("claim jobs: %w", err)
	}
	var jobs []Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("claim jobs: %w", err)
		}
		jobs = append(jobs, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim jobs: %w", err)
	}
	return jobs, nil
}

// ClaimDocumentJobs leases the runnable reading jobs of one document (see ClaimJobs), whatever
// their place in the queue: a file saved into a watched folder is analysed at once, not after
// a folder ingest queued before it. Its enrich job is not among them: it waits in the queue,
// so the document is searchable as soon as it is read and is linked afterwards. ErrNotFound
// when there are none (a worker has them).
func ClaimDocumentJobs(ctx context.Context, q Q, owner, documentID string, now time.Time, lease time.Duration) ([]Job, error) {
	ts := FormatTime(now)
	rows, err := q.QueryContext(ctx, `SELECT `+jobCols+` FROM jobs WHERE document_id = ? AND phase != 'enrich'
		AND ((state = 'queued' AND not_before <= ?) OR (state = 'running' AND lease_until < ?))
		ORDER BY not_before, job_id`, documentID, ts, ts)
	if err != nil {
		return nil, fmt.Errorf("claim jobs of %s: %w", documentID, err)
	}
	var jobs []Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("claim jobs of %s: %w", documentID, err)
		}
		jobs = append(jobs, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim jobs of %s: %w", documentID, err)
	}
	if len(jobs) == 0 {
		return nil, ErrNotFound
	}
	return leaseJobs(ctx, q, jobs, owner, now, lease)
}

// leaseJobs marks claimed jobs running under owner's lease.
func leaseJobs(ctx context.Context, q Q, jobs []Job, owner string, now time.Time, lease time.Duration) ([]Job, error) {
	ts := FormatTime(now)
	until := FormatTime(now.Add(lease))
	for i := range jobs {
		jobs[i].State, jobs[i].LeaseOwner, jobs[i].LeaseUntil, jobs[i].Attempts = JobRunning, owner, until, jobs[i].Attempts+1
		if _, err := q.ExecContext(ctx, `UPDATE jobs SET state = 'running', lease_owner = ?, lease_until = ?, attempts = attempts + 1, updated_at = ?
			WHERE job_id = ?`, owner, until, ts, jobs[i].JobID); err != nil {
			return nil, fmt.Errorf("claim job %d: %w", jobs[i].JobID, err)
		}
	}
	return jobs, nil
}

// ExtendLease renews a running job's lease; it fails with ErrNotFound if owner lost the lease.
func ExtendLease(ctx context.Context, q Q, jobID int64, owner string, until time.Time) error {
	res, err := q.ExecContext(ctx, `UPDATE jobs SET lease_until = ? WHERE job_id = ? AND state = 'running' AND lease_owner = ?`,
		FormatTime(until), jobID, owner)
	if err != nil {
		return fmt.Errorf("extend lease of job %d: %w", jobID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// FinishJob records a job's outcome, but only if owner still holds its lease: a worker whose
// lease expired (and whose job another worker took over) must not write results.
func FinishJob(ctx context.Context, q Q, jobID int64, owner, state string, errEnv json.RawMessage, notBefore, now string) error {
	res, err := q.ExecContext(ctx, `UPDATE jobs SET state = ?, error = ?, not_before = ?, lease_owner = NULL, lease_until = NULL, updated_at = ?
		WHERE job_id = ? AND state = 'running' AND lease_owner = ?`, state, nullRaw(errEnv), notBefore, now, jobID, owner)
	if err != nil {
		return fmt.Errorf("finish job %d: %w", jobID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

// JobsOf lists a document's jobs, newest first.
func JobsOf(ctx context.Context, q Q, documentID string) ([]Job, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+jobCols+` FROM jobs WHERE document_id = ? ORDER BY job_id DESC LIMIT 50`, documentID)
	if err != nil {
		return nil, fmt.Errorf("jobs of %s: %w", documentID, err)
	}
	defer rows.Close()
	out := []Job{}
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("scan job: %w", err)
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// CancelJobs marks a document's queued jobs for other versions as skipped (superseded), with
// reason (an error envelope) as their error; the caller makes it, since store knows no codes.
// Enrich jobs are never cancelled: one reads the document as it is when it runs, and a change
// is exactly what it must see to retract the links the old version caused.
func CancelJobs(ctx context.Context, q Q, documentID, keepPayloadID string, reason []byte, now string) error {
	_, err := q.ExecContext(ctx, `UPDATE jobs SET state = 'skipped', error = ?,
		updated_at = ? WHERE document_id = ? AND payload_id != ? AND state = 'queued' AND phase != 'enrich'`, string(reason), now, documentID, keepPayloadID)
	if err != nil {
		return fmt.Errorf("cancel jobs of %s: %w", documentID, err)
	}
	return nil
}

// RequeueSkipped queues again the jobs of phase that were skipped with the error code code
// (e.g. semantic jobs skipped for want of a chat model, once one appears) and marks their
// documents' phase queued; it returns how many jobs.
func RequeueSkipped(ctx context.Context, q Q, phase, code, now string) (int, error) {
	res, err := q.ExecContext(ctx, `UPDATE jobs SET state = 'queued', attempts = 0, not_before = ?, error = NULL, updated_at = ?
		WHERE phase = ? AND state = 'skipped' AND json_extract(error, '$.error.code') = ?`, now, now, phase, code)
	if err != nil {
		return 0, fmt.Errorf("requeue skipped %s jobs: %w", phase, err)
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		return 0, nil
	}
	col := map[string]string{"analyze": "phase_analyze", "semantic": "phase_semantic"}[phase]
	if col == "" {
		return int(n), nil
	}
	_, err = q.ExecContext(ctx, `UPDATE documents SET `+col+` = 'queued', updated_at = ? WHERE document_id IN
		(SELECT document_id FROM jobs WHERE phase = ? AND state = 'queued') AND `+col+` = 'skipped'`, now, phase)
	if err != nil {
		return 0, fmt.Errorf("requeue skipped %s jobs: documents: %w", phase, err)
	}
	return int(n), nil
}

// JobCounts counts jobs by phase and state, in one pass over the index jobs_phase_state (0010):
// the status reads its jobs by state and the enrich backlog from the same pass.
func JobCounts(ctx context.Context, q Q) (map[string]map[string]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT phase, state, count(*) FROM jobs GROUP BY phase, state`)
	if err != nil {
		return nil, fmt.Errorf("count jobs: %w", err)
	}
	defer rows.Close()
	out := map[string]map[string]int{}
	for rows.Next() {
		var p, s string
		var n int
		if err := rows.Scan(&p, &s, &n); err != nil {
			return nil, fmt.Errorf("count jobs: %w", err)
		}
		if out[p] == nil {
			out[p] = map[string]int{}
		}
		out[p][s] = n
	}
	return out, rows.Err()
}

// AddWatchRoot records a watched folder.
func AddWatchRoot(ctx context.Context, q Q, path, now string) (bool, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO watch_roots(path, added_at) VALUES (?, ?) ON CONFLICT DO NOTHING`, path, now)
	if err != nil {
		return false, fmt.Errorf("add watch root: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// RemoveWatchRoot forgets a watched folder.
func RemoveWatchRoot(ctx context.Context, q Q, path string) (bool, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM watch_roots WHERE path = ?`, path)
	if err != nil {
		return false, fmt.Errorf("remove watch root: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// WatchRoots lists watched folders in path order.
func WatchRoots(ctx context.Context, q Q) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT path FROM watch_roots ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("list watch roots: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("list watch roots: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// SetRootScan records that the watched folder path is being registered until until (a lease
// its registering process renews), or, with until "", that it no longer is.
func SetRootScan(ctx context.Context, q Q, path, until string) error {
	var v any
	if until != "" {
		v = until
	}
	if _, err := q.ExecContext(ctx, `UPDATE watch_roots SET scanning_until = ? WHERE path = ?`, v, path); err != nil {
		return fmt.Errorf("mark watch root scan: %w", err)
	}
	return nil
}

// ScanningRoots lists the watched folders whose registration lease runs past now: another call
// (in this process or another) is registering their files.
func ScanningRoots(ctx context.Context, q Q, now string) (map[string]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT path FROM watch_roots WHERE scanning_until > ?`, now)
	if err != nil {
		return nil, fmt.Errorf("watch roots being scanned: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("watch roots being scanned: %w", err)
		}
		out[p] = true
	}
	return out, rows.Err()
}

// WatchFolder is a watched folder with what its last full look skipped as assets.
type WatchFolder struct {
	Path          string `json:"path"`
	SkippedAssets int    `json:"skipped_assets"`
}

// WatchFolders lists the watched folders in path order.
func WatchFolders(ctx context.Context, q Q) ([]WatchFolder, error) {
	rows, err := q.QueryContext(ctx, `SELECT path, skipped_assets FROM watch_roots ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("list watch roots: %w", err)
	}
	defer rows.Close()
	out := []WatchFolder{}
	for rows.Next() {
		var f WatchFolder
		if err := rows.Scan(&f.Path, &f.SkippedAssets); err != nil {
			return nil, fmt.Errorf("list watch roots: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// SetSkippedAssets records how many asset files a full look at the watched folder path skipped.
func SetSkippedAssets(ctx context.Context, q Q, path string, n int) error {
	if _, err := q.ExecContext(ctx, `UPDATE watch_roots SET skipped_assets = ? WHERE path = ? AND skipped_assets IS NOT ?`, n, path, n); err != nil {
		return fmt.Errorf("record skipped assets: %w", err)
	}
	return nil
}
