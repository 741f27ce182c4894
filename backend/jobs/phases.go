package jobs

import (
	"context"
	"time"
)

// Phases is a Handler that hands each job to the handler of its phase, Default taking the
// phases By does not name. A claim never mixes the enrich phase with the others, but a batch
// may hold several phases, and each handler then runs its share: Strata's reading phases
// write one transaction per batch, its linking writes many short ones (backend/enrich), and
// neither waits inside the other's.
type Phases struct {
	Default Handler
	By      map[string]Handler
}

var _ Handler = Phases{}

// key names the handler of phase: the phase itself when By has it, else "" (Default).
func (p Phases) key(phase string) string {
	if _, ok := p.By[phase]; ok {
		return phase
	}
	return ""
}

func (p Phases) handler(key string) Handler {
	if key == "" {
		return p.Default
	}
	return p.By[key]
}

// Run implements Handler: the batch's jobs are grouped by handler, in order of first
// appearance, and each group runs after the previous one has written.
func (p Phases) Run(ctx context.Context, batch []Job) map[int64]error {
	var order []string
	groups := map[string][]Job{}
	for _, j := range batch {
		k := p.key(j.Phase)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], j)
	}
	failed := map[int64]error{}
	for _, k := range order {
		for id, err := range p.handler(k).Run(ctx, groups[k]) {
			failed[id] = err
		}
	}
	return failed
}

// Record implements Handler.
func (p Phases) Record(ctx context.Context, job Job, cause error, retry bool, notBefore time.Time) error {
	return p.handler(p.key(job.Phase)).Record(ctx, job, cause, retry, notBefore)
}
