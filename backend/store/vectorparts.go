package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"
)

// VectorLayout is a space's persisted coarse quantizer: the centroids its vectors were
// partitioned by and the watermarks at which the partition blocks are exact.
type VectorLayout struct {
	Space     string
	Dims      int
	TrainedN  int
	AddsWM    int64
	DeletesWM int64
	Centroids [][]float32
	Sizes     []int
}

// VectorBlock is one partition's vectors, by ascending chunk rowid.
type VectorBlock struct {
	Part    int
	RowIDs  []int64
	Vectors [][]float32
}

// ReadVectorLayout returns the space's layout, or nil when none was saved.
func ReadVectorLayout(ctx context.Context, q Q, space string) (*VectorLayout, error) {
	l := &VectorLayout{Space: space}
	var cents, sizes []byte
	err := q.QueryRowContext(ctx, `SELECT dims, trained_n, adds_wm, deletes_wm, centroids, sizes FROM vector_layouts WHERE space = ?`, space).
		Scan(&l.Dims, &l.TrainedN, &l.AddsWM, &l.DeletesWM, &cents, &sizes)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read vector layout: %w", err)
	}
	if l.Dims <= 0 || len(cents)%(4*l.Dims) != 0 || len(sizes) != 4*(len(cents)/(4*l.Dims)) {
		return nil, fmt.Errorf("read vector layout %s: blobs do not match %d dimensions", space, l.Dims)
	}
	flat := DecodeVector(cents)
	for i := 0; i < len(flat); i += l.Dims {
		l.Centroids = append(l.Centroids, flat[i:i+l.Dims:i+l.Dims])
	}
	for i := 0; i < len(sizes); i += 4 {
		l.Sizes = append(l.Sizes, int(int32(binary.LittleEndian.Uint32(sizes[i:]))))
	}
	return l, nil
}

// ReadVectorBlock returns one partition's block of the space.
func ReadVectorBlock(ctx context.Context, q Q, space string, part, dims int) (VectorBlock, error) {
	b := VectorBlock{Part: part}
	var ids, vecs []byte
	err := q.QueryRowContext(ctx, `SELECT rowids, vectors FROM vector_blocks WHERE space = ? AND part = ?`, space, part).Scan(&ids, &vecs)
	if errors.Is(err, sql.ErrNoRows) {
		return b, nil // an empty partition has no row
	}
	if err != nil {
		return b, fmt.Errorf("read vector block %d: %w", part, err)
	}
	n := len(ids) / 8
	if len(ids)%8 != 0 || len(vecs) != n*dims*4 {
		return b, fmt.Errorf("read vector block %d: %d rowid bytes do not match %d vector bytes", part, len(ids), len(vecs))
	}
	b.RowIDs = make([]int64, n)
	flat := viewVectors(vecs) // the partition's vectors are views into its one blob
	b.Vectors = make([][]float32, n)
	for i := range n {
		b.RowIDs[i] = int64(binary.LittleEndian.Uint64(ids[8*i:]))
		b.Vectors[i] = flat[i*dims : (i+1)*dims : (i+1)*dims]
	}
	return b, nil
}

// SaveVectorLayout replaces the space's layout and blocks. blocks[i] is partition i.
func SaveVectorLayout(ctx context.Context, tx *Tx, l VectorLayout, blocks []VectorBlock) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM vector_blocks WHERE space = ?`, l.Space); err != nil {
		return fmt.Errorf("save vector layout: %w", err)
	}
	cents := make([]byte, 0, len(l.Centroids)*l.Dims*4)
	for _, c := range l.Centroids {
		cents = append(cents, EncodeVector(c)...)
	}
	sizes := make([]byte, 4*len(l.Sizes))
	for i, s := range l.Sizes {
		binary.LittleEndian.PutUint32(sizes[4*i:], uint32(int32(s)))
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO vector_layouts(space, dims, trained_n, adds_wm, deletes_wm, centroids, sizes) VALUES (?,?,?,?,?,?,?)`,
		l.Space, l.Dims, l.TrainedN, l.AddsWM, l.DeletesWM, cents, sizes); err != nil {
		return fmt.Errorf("save vector layout: %w", err)
	}
	for _, b := range blocks {
		if len(b.RowIDs) == 0 {
			continue
		}
		ids := make([]byte, 8*len(b.RowIDs))
		vecs := make([]byte, 0, len(b.RowIDs)*l.Dims*4)
		for i, id := range b.RowIDs {
			binary.LittleEndian.PutUint64(ids[8*i:], uint64(id))
			vecs = append(vecs, EncodeVector(b.Vectors[i])...)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO vector_blocks(space, part, rowids, vectors) VALUES (?,?,?,?)`, l.Space, b.Part, ids, vecs); err != nil {
			return fmt.Errorf("save vector block %d: %w", b.Part, err)
		}
	}
	return nil
}

// DeleteVectorLayout forgets the space's layout (the index then rebuilds from embeddings).
func DeleteVectorLayout(ctx context.Context, tx *Tx, space string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM vector_blocks WHERE space = ?`, space); err != nil {
		return fmt.Errorf("delete vector layout: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM vector_layouts WHERE space = ?`, space); err != nil {
		return fmt.Errorf("delete vector layout: %w", err)
	}
	return nil
}

// littleEndian reports whether this machine stores a float32 as EncodeVector does.
var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// viewVectors returns b's float32s without copying them when the machine is little-endian and
// b is aligned (b is the caller's own copy of the blob), else decodes a copy. Loading 100k
// vectors spent a quarter of its time decoding, and the copy doubled the garbage of a load.
func viewVectors(b []byte) []float32 {
	if len(b) == 0 || !littleEndian || uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(float32(0)) != 0 {
		return DecodeVector(b)
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}
