//go:build unix

package engine_test

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time this process has used so far (user + system).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
