//go:build desktop && linux

package main

/*
#cgo pkg-config: glib-2.0
#include <glib.h>
#include <stdlib.h>
static void strata_set_prgname(const char *n) { g_set_prgname(n); }
*/
import "C"

import (
	_ "embed"
	"unsafe"
)

// setProgramName sets GLib's program name before the webview exists: WebKit names its storage
// and cache folders after it, and Wails' own ProgramName option is applied too late for that.
func setProgramName(n string) {
	cs := C.CString(n)
	defer C.free(unsafe.Pointer(cs))
	C.strata_set_prgname(cs)
}

//go:embed build/appicon.png
var appIcon []byte
