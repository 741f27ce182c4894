//go:build !desktop && !bindings

package main

import "github.com/strata-app/strata/cli"

// gui is nil in headless builds: `strata` with no command explains how to get the window.
var gui cli.GUIFunc

var _ = assets // embedded for the browser UI of later versions; keeps the embed checked in headless builds
