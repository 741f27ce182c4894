package host

import (
	"os"
	"path/filepath"

	"github.com/strata-app/strata/backend/errs"
	"github.com/strata-app/strata/backend/httpapi"
	"github.com/strata-app/strata/backend/mcpconfig"
)

// ClientServer is the one description of this Strata for an AI client's MCP configuration,
// used by `strata mcp config` and by the app's "Add to Claude/Cursor/Codex" alike, so the two
// never write different commands.
//
// stdio: this program with its symlinks resolved (a client launched through a link that a
// package upgrade later moves would start nothing) and `mcp --data ABS`. HTTP: the URL the
// running server recorded in the data folder (or the default address) with the folder's token.
func ClientServer(dataDir string, useHTTP bool) (mcpconfig.Server, error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return mcpconfig.Server{}, errs.Wrap(errs.Internal, err, "cannot resolve %s", dataDir)
	}
	if !useHTTP {
		exe, err := executable()
		if err != nil {
			return mcpconfig.Server{}, errs.Wrap(errs.Internal, err, "cannot find this program's path")
		}
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		return mcpconfig.Server{Command: exe, Args: []string{"mcp", "--data", abs}}, nil
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return mcpconfig.Server{}, errs.Wrap(errs.Internal, err, "cannot create the data folder %s", abs)
	}
	tok, err := httpapi.LoadOrCreateToken(abs)
	if err != nil {
		return mcpconfig.Server{}, errs.Wrap(errs.Internal, err, "cannot read or create the MCP token")
	}
	url := "http://" + httpapi.DefaultAddr + "/mcp"
	if ep, err := httpapi.ReadEndpoint(abs); err != nil {
		return mcpconfig.Server{}, errs.Wrap(errs.Internal, err, "cannot read the MCP endpoint")
	} else if ep != "" {
		url = ep
	}
	return mcpconfig.Server{URL: url, Token: tok}, nil
}
