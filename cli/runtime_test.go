package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/backend/mcpconfig"
	"github.com/strata-app/strata/cli"
	"github.com/strata-app/strata/host"
)

// `strata mcp config` prints the entry host.ClientServer builds, the one the app's "Add to …"
// buttons use (host's test checks the app side).
func TestMCPConfigUsesTheSharedClientEntry(t *testing.T) {
	dir := t.TempDir()
	for _, useHTTP := range []bool{false, true} {
		s, err := host.ClientServer(dir, useHTTP)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range mcpconfig.Clients {
			want, _ := mcpconfig.Snippet(c, s)
			args := []string{"mcp", "config", "--client", c}
			if useHTTP {
				args = append(args, "--http")
			}
			if r := strata(t, dir, "", args...); r.code != 0 || r.out != want {
				t.Errorf("%v: %d %s\nwant\n%s", args, r.code, r.out+r.err, want)
			}
		}
	}
}

// The window gets the options the command line chose, like `strata serve` and `strata mcp`:
// the desktop used to drop --max-file-mb and STRATA_MCP_RATE_LIMITS.
func TestGUIGetsTheCommandLinesOptions(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string { return map[string]string{"STRATA_MCP_RATE_LIMITS": "off"}[k] }
	ui := fstest.MapFS{"index.html": {Data: []byte("x")}}
	var got host.Options
	gui := func(_ context.Context, o host.Options) error { got = o; return nil }
	var out, errb bytes.Buffer
	code := cli.Main(context.Background(), []string{"--data", dir, "--max-file-mb", "7"}, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: env}, gui, ui)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if got.Config.DataDir != dir || got.Config.MaxFileBytes != 7<<20 || !got.NoRateLimits || got.UI == nil || got.Config.Logger == nil || got.Getenv == nil ||
		got.Hidden || got.Addr != "127.0.0.1:47821" {
		t.Fatalf("options: %+v", got)
	}
	// The login item's launch: hidden, and the endpoint where the command line put it.
	code = cli.Main(context.Background(), []string{"--data", dir, "--hidden", "--mcp-addr", "127.0.0.1:0"}, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: env}, gui, ui)
	if code != 0 || !got.Hidden || got.Addr != "127.0.0.1:0" {
		t.Fatalf("exit %d, options %+v: %s", code, got, errb.String())
	}
	// They are the window's: a command does not take them.
	if code := cli.Main(context.Background(), []string{"--data", dir, "status", "--hidden"}, cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: env}, gui, ui); code != 2 {
		t.Fatalf("status --hidden: exit %d", code)
	}
}
