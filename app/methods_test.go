package app_test

import (
	"net/http"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/strata-app/strata/app"
	"github.com/strata-app/strata/backend/errs"
)

// TestMethodsAreTheBoundSet: the App that the window binds has exactly the methods in
// app.Methods, and Host.Bindings binds that App alone. An exported method added to App without
// a line in Methods (or a lifecycle method moved back onto it) fails here.
func TestMethodsAreTheBoundSet(t *testing.T) {
	var got []string
	typ := reflect.TypeOf(&app.App{})
	for i := 0; i < typ.NumMethod(); i++ {
		got = append(got, typ.Method(i).Name)
	}
	if !slices.IsSorted(app.Methods) {
		t.Errorf("app.Methods is not sorted: %v", app.Methods)
	}
	if !slices.Equal(got, app.Methods) { // reflect lists methods sorted by name
		t.Fatalf("App's exported methods differ from app.Methods:\n got  %v\n want %v", got, app.Methods)
	}
	b := app.New(nil, app.Options{}).Bindings()
	if len(b) != 1 || reflect.TypeOf(b[0]) != typ {
		t.Fatalf("Bindings: %T", b)
	}
}

// TestBrowserServesOnlyTheList: over HTTP every listed method answers (its own result or its
// own error), and a name off the list — Host's lifecycle methods, what Host adds to the App,
// unknown names — is 404 NOT_FOUND without running anything.
func TestBrowserServesOnlyTheList(t *testing.T) {
	a, _ := newApp(t)
	h := a.Handler(fstest.MapFS{"index.html": {Data: []byte("<title>Strata</title>")}})

	// Arguments that keep each call harmless (no folder watched, no client config written).
	args := map[string][]any{
		"AddWatchedFolder":    {"/definitely/not/here"},
		"RemoveWatchedFolder": {"/definitely/not/here"},
		"InstallClient":       {"no-such-client"},
		"IngestPaths":         {[]string{"/definitely/not/here"}},
		"Upload":              {"x.txt", "aGVsbG8="},
	}
	for _, m := range app.Methods {
		in, ok := args[m]
		if !ok {
			fn, _ := reflect.TypeOf(&app.App{}).MethodByName(m)
			for i := 1; i < fn.Type.NumIn(); i++ { // zero values; In(0) is the receiver
				in = append(in, reflect.Zero(fn.Type.In(i)).Interface())
			}
		}
		code, res, body := post(t, h, m, in...)
		if env, _ := res["error"].(map[string]any); env != nil && env["code"] == "NOT_FOUND" {
			t.Errorf("%s is listed but answers %d %s", m, code, body)
		}
	}

	host := reflect.TypeOf(a)
	for _, m := range []string{"Startup", "Shutdown", "SetMCP", "Handler", "Bindings", "Nope", "c", "status"} {
		if _, onHost := host.MethodByName(m); !onHost && m != "Nope" && m != "c" && m != "status" {
			t.Fatalf("%s is no longer a Host method; pick another name off the list", m)
		}
		var in []any
		if m == "Startup" || m == "Shutdown" {
			in = []any{nil}
		}
		code, res, body := post(t, h, m, in...)
		env, _ := res["error"].(map[string]any)
		if code != http.StatusNotFound || env == nil || env["code"] != "NOT_FOUND" {
			t.Errorf("%s is off the list but answers %d %s", m, code, body)
		}
	}
	// Had Shutdown run over HTTP it would have cancelled the App's context; the App still answers.
	if st, err := a.Status(); err != nil || st == nil {
		t.Fatalf("status after the refused calls: %v", err)
	}
}

// TestErrorCodesAreTheRegistry: the UI's "Retry or not" comes from the registry the job runner
// uses: every code, with its retryable flag.
func TestErrorCodesAreTheRegistry(t *testing.T) {
	list := app.New(nil, app.Options{}).ErrorCodes()
	all := errs.All()
	if len(list) != len(all) {
		t.Fatalf("%d codes, the registry has %d", len(list), len(all))
	}
	got := map[string]bool{}
	for _, c := range list {
		got[c.Code] = c.Retryable
	}
	for code, want := range map[string]bool{errs.AnalysisFailed: false, errs.UnsupportedFileType: false, errs.FileUnreadable: true, errs.Internal: true} {
		if r, ok := got[code]; !ok || r != want {
			t.Errorf("%s: retryable %v (listed %v), want %v", code, r, ok, want)
		}
	}
}
