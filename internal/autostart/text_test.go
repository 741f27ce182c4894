package autostart

import (
	"encoding/xml"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestLaunchAgentText: the plist is well-formed XML whose ProgramArguments read back exactly,
// with XML's special characters escaped, and it says to run once at login in the graphical
// session (RunAtLoad, Aqua) without KeepAlive (Quit must stay quit).
func TestLaunchAgentText(t *testing.T) {
	e := Entry{Program: "/Applications/Strata.app/Contents/MacOS/Strata", Args: []string{"--data", "/Users/ann/R&D <notes>", "--hidden"}}
	b := LaunchAgent(e)
	if err := xml.Unmarshal(b, new(struct{ XMLName xml.Name })); err != nil {
		t.Fatalf("not well-formed: %v\n%s", err, b)
	}
	args, err := readLaunchAgent(b)
	if err != nil || !slices.Equal(args, append([]string{e.Program}, e.Args...)) {
		t.Fatalf("ProgramArguments read back as %q, %v", args, err)
	}
	for _, s := range []string{"<key>Label</key>\n\t<string>" + Label + "</string>", "<key>RunAtLoad</key>\n\t<true/>",
		"<key>LimitLoadToSessionType</key>\n\t<string>Aqua</string>", "R&amp;D &lt;notes&gt;", `<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN"`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("the plist lacks %q:\n%s", s, b)
		}
	}
	if strings.Contains(string(b), "KeepAlive") {
		t.Error("the plist restarts Strata after Quit (KeepAlive)")
	}
	if loc, _ := launchAgentLocation(Env{Home: "/Users/ann"}); loc != "/Users/ann/Library/LaunchAgents/"+Label+".plist" {
		t.Errorf("location %q", loc)
	}
}

// TestRunValueQuoting: the Run key's command line, read back by the rules of
// CommandLineToArgvW (Microsoft's "Parsing C command-line arguments"), gives the arguments
// written: for the fixed cases Go's syscall.EscapeArg tests use, and for random strings made
// of the characters that matter.
func TestRunValueQuoting(t *testing.T) {
	prog := `C:\Program Files\Strata\strata.exe`
	for _, c := range []struct{ arg, want string }{
		{"", `""`},
		{"plain", "plain"},
		{`C:\Users\ann\AppData\Local\strata`, `C:\Users\ann\AppData\Local\strata`},
		{`C:\Users\Ann Lee\notes`, `"C:\Users\Ann Lee\notes"`},
		{`C:\Users\Ann Lee\`, `"C:\Users\Ann Lee\\"`},
		{`a"b`, `a\"b`},
		{`a\"b`, `a\\\"b`},
		{`a b"c`, `"a b\"c"`},
		{"tab\there", "\"tab\there\""},
	} {
		if got := windowsArg(c.arg); got != c.want {
			t.Errorf("windowsArg(%q) = %s, want %s", c.arg, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', ' ', '\t', '"', '\\', 'Z', '%'}
	for range 5000 {
		args := make([]string, 1+r.IntN(4))
		for i := range args {
			b := make([]byte, r.IntN(8))
			for j := range b {
				b[j] = alphabet[r.IntN(len(alphabet))]
			}
			args[i] = string(b)
		}
		line := RunValue(Entry{Program: prog, Args: args})
		got := commandLineToArgv(line)
		if want := append([]string{prog}, args...); !slices.Equal(got, want) {
			t.Fatalf("%s\nreads back as %q\nwant %q", line, got, want)
		}
	}
}

// commandLineToArgv splits a command line as Windows does: the program by CreateProcess's rule
// (quoted up to the next quote, or up to white space), the arguments by CommandLineToArgvW's
// (2n backslashes and a quote: n backslashes and a quote toggles quoting; 2n+1 backslashes and a
// quote: n backslashes and a literal quote; "" inside quotes: a literal quote in post-2008
// runtimes; backslashes elsewhere are literal).
func commandLineToArgv(s string) []string {
	var args []string
	i := 0
	if strings.HasPrefix(s, `"`) {
		j := strings.IndexByte(s[1:], '"')
		args = append(args, s[1:1+j])
		i = j + 2
	} else {
		j := strings.IndexAny(s, " \t")
		if j < 0 {
			return []string{s}
		}
		args = append(args, s[:j])
		i = j
	}
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return args
		}
		var b strings.Builder
		quoted := false
		for i < len(s) {
			c := s[i]
			if !quoted && (c == ' ' || c == '\t') {
				break
			}
			if c == '\\' {
				n := 0
				for i < len(s) && s[i] == '\\' {
					n++
					i++
				}
				if i < len(s) && s[i] == '"' {
					b.WriteString(strings.Repeat(`\`, n/2))
					if n%2 == 1 {
						b.WriteByte('"')
						i++
					}
				} else {
					b.WriteString(strings.Repeat(`\`, n))
				}
				continue
			}
			if c == '"' {
				if quoted && i+1 < len(s) && s[i+1] == '"' {
					b.WriteByte('"')
					i += 2
					continue
				}
				quoted = !quoted
				i++
				continue
			}
			b.WriteByte(c)
			i++
		}
		args = append(args, b.String())
	}
}
