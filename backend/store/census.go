package store

import (
	"context"
	"database/sql"
	"fmt"
)

// CensusMark is a cheap fingerprint of what CountEmbeddings counts. It changes whenever a
// vector is written (embeddings.seq grows), a chunk is deleted (its trigger appends to
// embedding_deletes) or a chunk is added (chunks' rowid grows; a reused rowid comes only after
// a delete, which moved Deletes). Documents leave the census only by losing their chunks
// (removal and failure delete them), so their status needs no mark of its own.
//
// Reading it is three max() lookups on primary keys, so a status poll can tell whether the
// census is still true without counting every vector and chunk; and because it is read from
// the rows, it sees writes by other processes on the folder too.
type CensusMark struct {
	Embeddings, Deletes, Chunks int64
}

// ReadCensusMark reads the current CensusMark.
func ReadCensusMark(ctx context.Context, q Q) (CensusMark, error) {
	var a, d, c sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT (SELECT max(seq) FROM embeddings), (SELECT max(seq) FROM embedding_deletes),
		(SELECT max(rowid) FROM chunks)`).Scan(&a, &d, &c)
	if err != nil {
		return CensusMark{}, fmt.Errorf("census mark: %w", err)
	}
	return CensusMark{Embeddings: a.Int64, Deletes: d.Int64, Chunks: c.Int64}, nil
}
