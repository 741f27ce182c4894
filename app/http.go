package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"reflect"
	"strings"

	"github.com/strata-app/strata/backend/errs"
)

// Methods are the UI's calls, sorted: the App's exported methods, no more and no fewer (a test
// compares them with the App's method set). The browser handler serves exactly these, and the
// desktop binds the App (Host.Bindings), so the window and the browser reach the same list.
var Methods = []string{
	"AcceptSuggestion", "AddWatchedFolder", "Ask", "ClientSnippet", "CreateRelationship", "DismissSuggestion", "Document", "Documents",
	"EnrichStatus", "Entities", "Entity", "ErrorCodes", "IngestPaths", "IngestText", "InstallClient", "Lint",
	"Observations", "OpenPath", "Overview", "PickFiles", "PickFolder", "Provenance", "QueryRelationships", "Quit",
	"Relationships", "RemoveWatchedFolder", "Retry", "Search", "SetAutostart", "SetKeepRunning", "Settings", "Status", "Suggestions",
	"Upload", "WatchedFolders",
}

// Handler serves the UI in a browser: the built frontend at / and each of Methods at
// POST /api/<Method> with a JSON array of its arguments, answering its result as JSON — the
// very methods the Wails window calls, dispatched by name, so there is no second API with logic
// of its own. Any other name is 404 NOT_FOUND. Errors are the envelope with an HTTP status by
// code. Authentication and the Origin check are the caller's (httpapi).
func (h *Host) Handler(assets fs.FS) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServerFS(assets))
	methods := make(map[string]reflect.Value, len(Methods))
	v := reflect.ValueOf(h.App)
	for _, name := range Methods {
		m := v.MethodByName(name)
		if !m.IsValid() {
			panic("app: Methods lists " + name + ", which App does not have") // TestMethodsAreTheBoundSet catches it
		}
		methods[name] = m
	}
	mux.HandleFunc("POST /api/{method}", func(w http.ResponseWriter, r *http.Request) {
		m, ok := methods[r.PathValue("method")]
		if !ok {
			writeErr(w, errs.New(errs.NotFound, "no method %q", r.PathValue("method")))
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxUpload*2))
		if err != nil {
			writeErr(w, errs.New(errs.Validation, "cannot read the request"))
			return
		}
		var raw []json.RawMessage
		if len(strings.TrimSpace(string(body))) > 0 {
			if err := json.Unmarshal(body, &raw); err != nil {
				writeErr(w, errs.New(errs.Validation, "the body must be a JSON array of arguments"))
				return
			}
		}
		t := m.Type()
		if len(raw) != t.NumIn() {
			writeErr(w, errs.New(errs.Validation, "%s takes %d argument(s), got %d", r.PathValue("method"), t.NumIn(), len(raw)))
			return
		}
		args := make([]reflect.Value, len(raw))
		for i, rm := range raw {
			p := reflect.New(t.In(i))
			if err := json.Unmarshal(rm, p.Interface()); err != nil {
				if ee := (*errs.Error)(nil); errors.As(err, &ee) {
					writeErr(w, ee) // a field's own check (engine.Limit) names the field
					return
				}
				writeErr(w, errs.Wrap(errs.Validation, err, "argument %d of %s does not have the expected type", i+1, r.PathValue("method")))
				return
			}
			args[i] = p.Elem()
		}
		out := m.Call(args)
		if e, _ := out[len(out)-1].Interface().(error); e != nil {
			writeErr(w, e)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		var res any
		if len(out) == 2 {
			res = out[0].Interface()
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res); err != nil {
			fmt.Fprintln(w) // the client sees a broken body; the status is already sent
		}
	})
	return mux
}

func writeErr(w http.ResponseWriter, err error) {
	e := errs.As(err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(errs.HTTPStatus(e.Code))
	_, _ = w.Write(errs.EnvelopeJSON(e))
}
