package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ActiveSpaceKey is the setting that names the vector space answering searches once a
// semantic space is complete (unset: the static space).
const ActiveSpaceKey = "embeddings.active_space"

// Setting reads a folder-wide setting; a missing key is "" with no error.
func Setting(ctx context.Context, q Q, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read setting %s: %w", key, err)
	}
	return v, nil
}

// SetSetting writes a folder-wide setting.
func SetSetting(ctx context.Context, q Q, key, value string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO settings(key, value) VALUES (?,?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	if err != nil {
		return fmt.Errorf("write setting %s: %w", key, err)
	}
	return nil
}
