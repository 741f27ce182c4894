package autostart

import "strings"

// runKeyPath is where Windows keeps this user's login programs; the value is named Strata.
const runKeyPath = `HKCU\Software\Microsoft\Windows\CurrentVersion\Run`

// runValueName is the name of the value under the Run key.
const runValueName = "Strata"

// RunValue is the command line written under the Run key: the program in double quotes (the
// first word is read by CreateProcess's own rule, which knows no escapes, and a Windows path
// cannot hold a quote), then each argument quoted as CommandLineToArgvW reads it back (the
// rule Go's syscall.EscapeArg implements).
func RunValue(e Entry) string {
	parts := []string{`"` + e.Program + `"`}
	for _, a := range e.Args {
		parts = append(parts, windowsArg(a))
	}
	return strings.Join(parts, " ")
}

// windowsArg quotes one argument for CommandLineToArgvW: spaces or tabs need quotes, a quote
// is escaped with a backslash, and backslashes are doubled only where they precede a quote
// (including the closing one).
func windowsArg(s string) string {
	if s == "" {
		return `""`
	}
	hasSpace := strings.ContainsAny(s, " \t")
	if !hasSpace && !strings.ContainsAny(s, `"\`) {
		return s
	}
	var b strings.Builder
	if hasSpace {
		b.WriteByte('"')
	}
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	if hasSpace {
		b.WriteString(strings.Repeat(`\`, slashes))
		b.WriteByte('"')
	}
	return b.String()
}
