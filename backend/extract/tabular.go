package extract

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxCSVRows bounds a spreadsheet export; past it the text is marked truncated. A million rows
// is far beyond a document worth reading as text, and well within the text-size limit.
const maxCSVRows = 1_000_000

// readCSV renders each row as "column: value | column: value" so that a chunk of rows still
// says what each number means when it is read (or embedded) far from the header. Line 1 is the
// header and row N is on the line where it starts in the file, so citations point at the row.
func readCSV(ctx context.Context, text, name string, lim Limits) (*Document, error) {
	doc := &Document{Meta: map[string]any{}}
	if strings.TrimSpace(text) == "" {
		doc.Text = text
		return doc, nil
	}
	delim := csvDelimiter(text, extOf(name))
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = delim
	r.LazyQuotes = true    // exports from spreadsheets often have stray quotes
	r.FieldsPerRecord = -1 // ragged rows are common and harmless
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		return nil, csvError(err, name)
	}
	cols := make([]string, len(header))
	for i, h := range header {
		cols[i] = strings.TrimSpace(strings.TrimPrefix(h, "\uFEFF"))
		if cols[i] == "" {
			cols[i] = "column " + strconv.Itoa(i+1)
		}
	}
	var b strings.Builder
	b.WriteString(strings.Join(cols, " | "))
	line, rows := 1, 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err, name)
		}
		if rows%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if rows >= maxCSVRows || int64(b.Len()) >= lim.MaxTextBytes {
			doc.Meta["truncated"] = true
			break
		}
		rows++
		start, _ := r.FieldPos(0)
		for line < start {
			b.WriteByte('\n')
			line++
		}
		sep := ""
		for i, v := range rec {
			v = strings.Join(strings.Fields(v), " ") // embedded newlines would break the row-per-line shape
			if v == "" {
				continue
			}
			col := "column " + strconv.Itoa(i+1)
			if i < len(cols) {
				col = cols[i]
			}
			b.WriteString(sep + col + ": " + v)
			sep = " | "
		}
	}
	b.WriteByte('\n')
	doc.Text = b.String()
	doc.Meta["columns"] = cols
	doc.Meta["rows"] = rows
	doc.Meta["delimiter"] = string(delim)
	return doc, nil
}

func csvError(err error, name string) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return analysisFailed(err, name, "invalid CSV at line %d", pe.Line).
			WithHint("check the quoting around line %d, or re-export the file from the spreadsheet", pe.Line).With("line", pe.Line)
	}
	return analysisFailed(err, name, "invalid CSV").WithHint("re-export the file from the spreadsheet as CSV")
}

// csvDelimiter picks the separator: tab for .tsv, else whichever of , ; tab | occurs most in
// the first line outside quotes (European spreadsheets write ';').
func csvDelimiter(text, ext string) rune {
	if ext == ".tsv" || ext == ".tab" {
		return '\t'
	}
	first, _, _ := strings.Cut(text, "\n")
	counts := map[rune]int{}
	inQuote := false
	for _, c := range first {
		switch {
		case c == '"':
			inQuote = !inQuote
		case !inQuote && (c == ',' || c == ';' || c == '\t' || c == '|'):
			counts[c]++
		}
	}
	best := ','
	for _, c := range []rune{';', '\t', '|'} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return best
}

// JSON limits: paths stop growing past maxJSONPathDepth (deeper keys are elided) so a deeply
// nested file cannot make every line quadratic in its depth.
const maxJSONPathDepth = 32

var errJSONFull = errors.New("text limit reached")

// readJSON flattens JSON into "path.to.key: value" lines, in file order, so search finds a
// value next to the name that gives it meaning. It streams tokens instead of decoding into maps
// to keep key order and memory bounded. A stream of values (JSON Lines, or several documents
// concatenated) is numbered "[0]…", "[1]…". Invalid JSON is ANALYSIS_FAILED with its line.
func readJSON(ctx context.Context, text, name string, lim Limits) (*Document, error) {
	doc := &Document{Meta: map[string]any{}}
	if strings.TrimSpace(text) == "" {
		doc.Text = text
		return doc, nil
	}
	stream := extOf(name) == ".jsonl" || extOf(name) == ".ndjson"
	f := newJSONFlattener(ctx, text, lim)
	records, firstEnd := 0, 0
	for {
		if records > 0 && !f.dec.More() {
			// Only whitespace may follow; Token reports anything else as a syntax error.
			if _, err := f.dec.Token(); err != io.EOF {
				if err == nil {
					err = errors.New("unexpected data after the JSON value")
				}
				return nil, jsonError(err, f, text, name)
			}
			break
		}
		if records == 1 && !stream {
			// A second top-level value: this is a stream after all, so the first value is
			// rewritten under "[0]" like the ones that follow.
			stream = true
			g := newJSONFlattener(ctx, text[:firstEnd], lim)
			if err := g.value("[0]", 0); err != nil && !errors.Is(err, errJSONFull) {
				return nil, jsonError(err, g, text, name)
			}
			f.out.Reset()
			f.out.WriteString(g.out.String())
			f.title = ""
		}
		prefix := ""
		if stream {
			prefix = "[" + strconv.Itoa(records) + "]"
		}
		if err := f.value(prefix, 0); err != nil {
			if errors.Is(err, errJSONFull) {
				doc.Meta["truncated"] = true
				break
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, jsonError(err, f, text, name)
		}
		if records == 0 {
			firstEnd = int(f.dec.InputOffset())
		}
		records++
	}
	doc.Text = f.out.String()
	doc.Title = f.title
	if stream {
		doc.Meta["records"] = records
	}
	return doc, nil
}

func jsonError(err error, f *jsonFlattener, text, name string) error {
	line := lineAt(text, int(f.dec.InputOffset()))
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line = lineAt(text, int(se.Offset))
	}
	return analysisFailed(err, name, "invalid JSON near line %d", line).
		WithHint("fix the JSON syntax near line %d (a validator such as `jq . FILE` shows the exact spot)", line).With("line", line)
}

func newJSONFlattener(ctx context.Context, text string, lim Limits) *jsonFlattener {
	f := &jsonFlattener{dec: json.NewDecoder(strings.NewReader(text)), limit: int(lim.MaxTextBytes), ctx: ctx}
	f.dec.UseNumber()
	return f
}

type jsonFlattener struct {
	dec   *json.Decoder
	out   strings.Builder
	limit int
	title string
	n     int
	ctx   context.Context
}

func (f *jsonFlattener) value(path string, depth int) error {
	tok, err := f.dec.Token()
	if err != nil {
		if err == io.EOF {
			return io.ErrUnexpectedEOF
		}
		return err
	}
	f.n++
	if f.n%8192 == 0 {
		if err := f.ctx.Err(); err != nil {
			return err
		}
	}
	switch t := tok.(type) {
	case json.Delim:
		empty := true
		switch t {
		case '{':
			for f.dec.More() {
				kt, err := f.dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				p := path
				switch {
				case depth >= maxJSONPathDepth:
					if !strings.HasSuffix(p, "…") {
						p += ".…"
					}
				case p == "":
					p = key
				default:
					p += "." + key
				}
				if err := f.value(p, depth+1); err != nil {
					return err
				}
				empty = false
			}
			if empty {
				f.line(path, "{}")
			}
		case '[':
			for i := 0; f.dec.More(); i++ {
				p := path
				if depth < maxJSONPathDepth {
					p += "[" + strconv.Itoa(i) + "]"
				}
				if err := f.value(p, depth+1); err != nil {
					return err
				}
				empty = false
			}
			if empty {
				f.line(path, "[]")
			}
		default:
			return fmt.Errorf("unexpected %v", t)
		}
		if _, err := f.dec.Token(); err != nil { // the closing delimiter
			return err
		}
	case string:
		if depth == 1 && f.title == "" && (path == "title" || path == "name") {
			f.title = strings.TrimSpace(t)
		}
		f.line(path, strings.Join(strings.Fields(t), " "))
	case json.Number:
		f.line(path, t.String())
	case bool:
		f.line(path, strconv.FormatBool(t))
	case nil:
		f.line(path, "null")
	}
	if f.out.Len() >= f.limit {
		return errJSONFull
	}
	return nil
}

func (f *jsonFlattener) line(path, v string) {
	if path != "" {
		f.out.WriteString(path + ": ")
	}
	f.out.WriteString(v + "\n")
}

// lineAt is the 1-based line of byte offset off in text.
func lineAt(text string, off int) int {
	off = max(0, min(off, len(text)))
	return strings.Count(text[:off], "\n") + 1
}
