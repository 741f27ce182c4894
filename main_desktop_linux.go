//go:build desktop && linux

package main

/*
#cgo pkg-config: glib-2.0 gtk+-3.0
#include <glib.h>
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>
static void strata_set_prgname(const char *n) { g_set_prgname(n); }

// strata_present runs on GTK's main loop: it shows and raises the top-level window with the
// given title (Wails' WindowShow only maps a hidden window, it does not raise one that is
// behind others), then frees the title.
static gboolean strata_present(gpointer data) {
	char *title = data;
	GList *l = gtk_window_list_toplevels();
	for (GList *i = l; i != NULL; i = i->next) {
		GtkWindow *w = GTK_WINDOW(i->data);
		if (gtk_window_get_window_type(w) == GTK_WINDOW_TOPLEVEL && g_strcmp0(gtk_window_get_title(w), title) == 0) {
			gtk_window_present(w);
		}
	}
	g_list_free(l);
	free(title);
	return G_SOURCE_REMOVE;
}
static void strata_present_later(const char *title) { g_idle_add(strata_present, strdup(title)); }
*/
import "C"

import (
	"context"
	_ "embed"
	"log/slog"
	"os"
	"unsafe"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// setProgramName sets GLib's program name before the webview exists: WebKit names its storage
// and cache folders after it, and Wails' own ProgramName option is applied too late for that.
func setProgramName(n string) {
	cs := C.CString(n)
	defer C.free(unsafe.Pointer(cs))
	C.strata_set_prgname(cs)
}

// presentWindow raises the window titled title, on GTK's main loop.
func presentWindow(title string) {
	cs := C.CString(title)
	defer C.free(unsafe.Pointer(cs))
	C.strata_present_later(cs)
}

// notifyBackground tells the person, the first time the window is closed, that Strata is still
// running: Wails v2 has no tray icon on Linux, so without this a closed window looks like a
// stopped app. It uses the desktop's notification service over the session bus; without a
// session bus (DBUS_SESSION_BUS_ADDRESS unset, where godbus would try to start a private one)
// it says nothing, and the log line remains.
func notifyBackground(ctx context.Context, log *slog.Logger) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return
	}
	err := wruntime.InitializeNotifications(ctx)
	if err == nil {
		err = wruntime.SendNotification(ctx, wruntime.NotificationOptions{ID: "strata-background", Title: "Strata is still running",
			Body: "Your AI tools can still search your documents. Open Strata again to see the window; choose Strata ▸ Quit to stop it."})
		// A one-shot notice with no answer to wait for: the bus connection and the signal
		// goroutine it started are not kept for the rest of the run.
		wruntime.CleanupNotifications(ctx)
	}
	if err != nil {
		log.Debug("no desktop notification for the background mode", "err", err)
	}
}

//go:embed build/appicon.png
var appIcon []byte
