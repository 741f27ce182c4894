package watch

import (
	"errors"
	"runtime"
	"strings"
	"syscall"
)

// limitAdvice recognises the errors that mean "the system will not give us more watches" and
// says, in words a person can act on, which limit to raise. Anything else is not a limit and
// is not worked around by polling.
func limitAdvice(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	msg := err.Error()
	switch {
	case errors.Is(err, syscall.ENOSPC) || strings.Contains(msg, "no space left on device"):
		// inotify_add_watch reports the per-user watch limit as ENOSPC.
		return "the inotify watch limit (fs.inotify.max_user_watches) is reached; raise it with " +
			"`sudo sysctl fs.inotify.max_user_watches=524288` and make it permanent with " +
			"`echo fs.inotify.max_user_watches=524288 | sudo tee /etc/sysctl.d/90-strata.conf`", true
	case errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || strings.Contains(msg, "too many open files"):
		if runtime.GOOS == "linux" {
			// inotify_init1 reports the per-user instance limit as EMFILE.
			return "the inotify instance limit (fs.inotify.max_user_instances) or the open-file limit is reached; " +
				"raise it with `sudo sysctl fs.inotify.max_user_instances=1024` (permanent: add " +
				"fs.inotify.max_user_instances=1024 to /etc/sysctl.d/90-strata.conf), or raise `ulimit -n`", true
		}
		// kqueue needs one descriptor per watched file and directory.
		return "the open-file limit is reached (kqueue uses one file descriptor per watched file); " +
			"raise it with `ulimit -n` (or `launchctl limit maxfiles` on macOS)", true
	}
	return "", false
}
