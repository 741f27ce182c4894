package ingest

import (
	"fmt"

	"github.com/strata-app/strata/backend/docstate"
	"github.com/strata-app/strata/backend/store"
)

// setStatus moves d to the status event leads to. Every write of a document's status goes
// through it, so a move the life cycle does not allow fails the write instead of storing a
// status the library would show wrongly.
func setStatus(d *store.Document, event docstate.Event) error {
	next, err := docstate.Next(docstate.Status(d.Status), event)
	if err != nil {
		return fmt.Errorf("document %s: %w", d.DocumentID, err)
	}
	d.Status = string(next)
	return nil
}

// can reports whether event may happen to d now; a job whose result may no longer be written
// (the document was removed or failed again while it ran) is retired as superseded.
func can(d store.Document, event docstate.Event) bool {
	return docstate.Can(docstate.Status(d.Status), event)
}

// isStatus reports whether d has one of the statuses.
func isStatus(d store.Document, statuses ...docstate.Status) bool {
	for _, s := range statuses {
		if docstate.Status(d.Status) == s {
			return true
		}
	}
	return false
}
