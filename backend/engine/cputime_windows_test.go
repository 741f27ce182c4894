package engine_test

import (
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// cpuTime is the CPU time this process has used so far (user + system); Windows counts it in
// 100-nanosecond units.
func cpuTime(b *testing.B) time.Duration {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &created, &exited, &kernel, &user); err != nil {
		b.Fatal(err)
	}
	units := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration(units(kernel)+units(user)) * 100
}
