package engine

import (
	"context"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/store"
)

// keepRunningKey is the setting that says whether the desktop app keeps running in the
// background when its window is closed. Unset means yes: AI tools keep their MCP endpoint and
// watched folders keep being read until the person quits. It lives in the data folder's
// settings table, beside the allowed roots, because it belongs to this store (one window per
// data folder) and SQLite is the one place a folder's settings are kept (DESIGN.md invariant 1).
const keepRunningKey = "desktop.keep_running"

// KeepRunning reports whether closing the desktop window leaves Strata running in the
// background (the default) rather than quitting it.
func (e *Engine) KeepRunning(ctx context.Context) (bool, error) {
	v, err := store.Setting(ctx, e.db.Reader(), keepRunningKey)
	if err != nil {
		return true, queryErr(err, "settings")
	}
	return v != "off", nil
}

// SetKeepRunning records whether closing the desktop window keeps Strata running.
func (e *Engine) SetKeepRunning(ctx context.Context, on bool) error {
	v := "on"
	if !on {
		v = "off"
	}
	err := e.db.WriteTx(ctx, func(tx *store.Tx) error { return store.SetSetting(ctx, tx, keepRunningKey, v) })
	if err != nil {
		return errs.Wrap(errs.DBInsertFailed, err, "could not save the background setting")
	}
	return nil
}
