package extract

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/strata-app/strata/backend/errs"
)

// Limits bound what a reader may consume. Phase 2 runs on files nobody has vetted (a
// watched Downloads folder), so every reader must stop on its own rather than trust the file.
type Limits struct {
	MaxBytes        int64 // input size limit (caller already checked; reader may re-check)
	MaxUncompressed int64 // for zip-based formats (DOCX): bound total inflated size (zip bombs); default 256 MiB
	MaxTextBytes    int64 // stop extracting beyond this much text; default 64 MiB
}

// Defaults used when a Limits field is zero. The uncompressed bound is above the register
// phase's default file-size limit (200 MB) so an honest DOCX full of text still passes.
const (
	DefaultMaxUncompressed = 256 << 20
	DefaultMaxTextBytes    = 64 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxUncompressed <= 0 {
		l.MaxUncompressed = DefaultMaxUncompressed
	}
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultMaxTextBytes
	}
	return l
}

// Document is a file's text with structure. Text is Markdown-flavoured: headings the reader
// finds (HTML h1-h6, DOCX Heading styles, PDF none) are emitted as ATX '#' lines so the existing
// Chunk() finds them; tables become lines with cells separated by " | ".
type Document struct {
	Text     string
	Title    string         // best title: md front matter/first heading, html <title>/h1, docx core title/first heading, pdf Info Title; "" if none
	Mime     string         // e.g. text/markdown, application/pdf
	Kind     string         // "text","markdown","html","pdf","docx","csv","json","code"
	Language string         // for code: "go","python",... (from extension)
	Pages    []PageSpan     // PDF only: byte range of each page in Text, 1-based page numbers
	Meta     map[string]any // md front matter, pdf info, csv columns, etc.
	Tags     []string       // from md front matter `tags:`; inline #hashtags are NOT here (heuristics do those later)
	// Regions are the stretches of Text that are not prose (code, link targets, markup),
	// sorted by Start and non-overlapping; heuristics read only the prose (structure.go).
	Regions []Region
	// Source maps Text offsets back to the file's bytes and lines, for readers whose Text is
	// not the file's own text (HTML, Markdown with front matter); nil when it is.
	Source *SourceMap
}

// PageSpan is the byte range [ByteStart, ByteEnd) of one page in Document.Text, so a chunk
// can cite the page it came from.
type PageSpan struct{ Page, ByteStart, ByteEnd int }

// Read extracts a Document from the file's bytes. name is the file name (for extension/kind).
//
// Errors are *errs.Error with code UNSUPPORTED_FILE_TYPE (not a format we read),
// ANALYSIS_FAILED (a supported format that is broken) or FILE_TOO_LARGE (a limit was hit, such
// as a zip bomb), always with a hint. Read never panics: the PDF library in particular panics on
// malformed input, and one bad file must not take down a job worker, so a panic becomes
// ANALYSIS_FAILED. ctx is checked between pages and parts.
func Read(ctx context.Context, data []byte, name string, lim Limits) (doc *Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc = nil
			err = errs.Wrap(errs.AnalysisFailed, fmt.Errorf("panic: %v\n%s", r, debug.Stack()),
				"the reader failed on %s", baseName(name)).
				WithHint("the file looks damaged or uses a feature the reader does not handle; re-export or re-save it and try again")
		}
	}()
	lim = lim.withDefaults()
	if lim.MaxBytes > 0 && int64(len(data)) > lim.MaxBytes {
		return nil, errs.New(errs.FileTooLarge, "%s is %d bytes, over the limit of %d", baseName(name), len(data), lim.MaxBytes).
			WithHint("raise the file size limit in the settings or split the file").
			With("size", len(data)).With("limit", lim.MaxBytes)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	kind, mime := Sniff(data[:min(len(data), sniffLen)], name)
	if kind == "" {
		return nil, unsupported(data, name)
	}
	if len(data) == 0 {
		// Empty whatever its name (often a file still being written): the caller decides to
		// skip it, and a later change event brings the real content.
		return &Document{Kind: kind, Mime: mime, Meta: map[string]any{}}, nil
	}
	switch kind {
	case "pdf":
		doc, err = readPDF(ctx, data, name, lim)
	case "docx":
		doc, err = readDOCX(ctx, data, name, lim)
	default:
		doc, err = readTextual(ctx, kind, data, name, lim)
	}
	if err != nil {
		return nil, err
	}
	doc.Kind = kind
	if doc.Mime == "" {
		doc.Mime = mime
	}
	if doc.Meta == nil {
		doc.Meta = map[string]any{}
	}
	return doc, nil
}

// readTextual decodes the bytes to UTF-8 once and hands the string to the format's reader, so
// every text format accepts the same encodings (UTF-8, UTF-16 with BOM, Windows-1252).
func readTextual(ctx context.Context, kind string, data []byte, name string, lim Limits) (*Document, error) {
	text, enc, err := decodeText(data)
	if err != nil {
		return nil, errs.Wrap(errs.AnalysisFailed, err, "%s is not readable text", baseName(name)).
			WithHint("the file contains binary data or an encoding Strata cannot decode; save it as UTF-8 text")
	}
	var doc *Document
	switch kind {
	case "markdown":
		doc = readMarkdown(text)
	case "html":
		doc, err = readHTML(ctx, text, lim)
	case "csv":
		doc, err = readCSV(ctx, text, name, lim)
	case "json":
		doc, err = readJSON(ctx, text, name, lim)
	case "code":
		doc = &Document{Text: text, Language: languageOf(name)}
	default:
		doc = &Document{Text: text}
	}
	if err != nil {
		return nil, err
	}
	if doc.Source != nil && enc == "utf-8" && bytes.HasPrefix(data, bomUTF8) {
		doc.Source.shift(len(bomUTF8))
	}
	if enc != "utf-8" {
		if doc.Meta == nil {
			doc.Meta = map[string]any{}
		}
		doc.Meta["encoding"] = enc
	}
	truncateText(doc, lim.MaxTextBytes)
	return doc, nil
}

// truncateText enforces MaxTextBytes for readers that produce their text in one piece: it cuts
// at the last line break before the limit (or a rune boundary), so no chunk ends mid-character,
// and records that the text is partial instead of failing: a huge log is still worth searching.
func truncateText(doc *Document, max int64) {
	if max <= 0 || int64(len(doc.Text)) <= max {
		return
	}
	cut := int(max)
	if nl := strings.LastIndexByte(doc.Text[:cut], '\n'); nl > cut/2 {
		cut = nl + 1
	}
	for cut > 0 && !utf8.RuneStart(doc.Text[cut]) {
		cut--
	}
	doc.Text = doc.Text[:cut]
	doc.Regions = mergeRegions(doc.Regions, cut) // no region may reach past the text
	if doc.Meta == nil {
		doc.Meta = map[string]any{}
	}
	doc.Meta["truncated"] = true
}

func baseName(name string) string {
	if name == "" {
		return "the file"
	}
	return filepath.Base(name)
}

// analysisFailed is the common shape of "this is the right format but it is broken".
func analysisFailed(err error, name, format string, args ...any) *errs.Error {
	msg := fmt.Sprintf(format, args...)
	if err == nil {
		return errs.New(errs.AnalysisFailed, "%s: %s", baseName(name), msg)
	}
	return errs.Wrap(errs.AnalysisFailed, err, "%s: %s", baseName(name), msg)
}

func tooLarge(name, format string, args ...any) *errs.Error {
	return errs.New(errs.FileTooLarge, "%s: %s", baseName(name), fmt.Sprintf(format, args...))
}
