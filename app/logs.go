package app

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
)

// LogBuffer keeps the last lines logged, for the settings screen. Its Handler tees records to
// another handler (stderr) and into the buffer.
type LogBuffer struct {
	mu    sync.Mutex
	lines []string
	max   int
}

// NewLogBuffer keeps the last n lines.
func NewLogBuffer(n int) *LogBuffer { return &LogBuffer{max: n} }

// Lines returns the buffered lines, oldest first.
func (b *LogBuffer) Lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string{}, b.lines...)
}

func (b *LogBuffer) add(line string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lines = append(b.lines, line)
	if len(b.lines) > b.max {
		b.lines = append(b.lines[:0:0], b.lines[len(b.lines)-b.max:]...)
	}
}

// Handler returns a slog.Handler writing to next and to the buffer (at level and above).
func (b *LogBuffer) Handler(next slog.Handler, level slog.Level) slog.Handler {
	return &teeHandler{buf: b, next: next, level: level}
}

type teeHandler struct {
	buf   *LogBuffer
	next  slog.Handler
	level slog.Level
	attrs []slog.Attr
	group string
}

func (h *teeHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.level || h.next.Enabled(ctx, l)
}

func (h *teeHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= h.level {
		var out bytes.Buffer
		th := slog.Handler(slog.NewTextHandler(&out, nil))
		if len(h.attrs) > 0 {
			th = th.WithAttrs(h.attrs)
		}
		if err := th.Handle(ctx, r); err == nil {
			h.buf.add(strings.TrimSpace(out.String()))
		}
	}
	if h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h *teeHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr{}, h.attrs...), as...)
	c.next = h.next.WithAttrs(as)
	return &c
}

func (h *teeHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.next = h.next.WithGroup(name)
	return &c
}
