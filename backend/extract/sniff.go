package extract

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/gabriel-vasile/mimetype"
	"github.com/strata-app/strata/backend/errs"
)

// sniffLen is how much of a file Sniff looks at; it matches mimetype's own read limit.
const sniffLen = 4096

const docxMime = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

// Sniff decides the kind from content first (magic bytes / mimetype), then the file extension.
// Returns "" kind when the file is not a supported format (binary junk, images, archives...).
//
// Content decides what the bytes are (PDF, a Word zip, some other binary, or text), because
// names lie: a PDF saved as "scan.txt" is still a PDF. For text, the extension then decides the
// flavour, because text content is ambiguous: a Markdown note that starts with an HTML comment
// is still Markdown, and a .json file is JSON even if it is just a number. Only text without a
// known extension is sniffed further (HTML, JSON).
func Sniff(head []byte, name string) (kind, mime string) {
	ext := extOf(name)
	if len(head) == 0 {
		if k, m := kindByExt(name); k != "" {
			return k, m
		}
		return "text", "text/plain"
	}
	if bytes.HasPrefix(head, []byte("%PDF-")) {
		return "pdf", "application/pdf"
	}
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		if ext == ".docx" || mimetype.Detect(head).Is(docxMime) {
			return "docx", docxMime
		}
		return "", "" // other zips: archives, spreadsheets, slides, e-books
	}
	if looksBinary(head) {
		// Unknown bytes under a .pdf or .docx name are most likely that format damaged (a
		// download cut short, a header overwritten): let the reader say so with
		// ANALYSIS_FAILED. Bytes mimetype recognises (an image renamed .pdf) are unsupported.
		if (ext == ".pdf" || ext == ".docx") && mimetype.Detect(head).String() == "application/octet-stream" {
			return kindByExt(name)
		}
		// Word saves a password-protected .docx as an OLE container, not a zip; the DOCX
		// reader names that case, which is more useful than "unsupported".
		if ext == ".docx" && bytes.HasPrefix(head, []byte{0xD0, 0xCF, 0x11, 0xE0}) {
			return kindByExt(name)
		}
		return "", ""
	}
	if k, m := kindByExt(name); k != "" && k != "pdf" && k != "docx" {
		return k, m
	}
	if k, m := sniffText(head); k != "" {
		return k, m
	}
	if ext == ".pdf" || ext == ".docx" {
		return kindByExt(name) // text under a binary format's name: the reader reports it as broken
	}
	return "text", "text/plain"
}

// sniffText recognises HTML and JSON in text that has no telling extension.
func sniffText(head []byte) (kind, mime string) {
	m := mimetype.Detect(head)
	switch {
	case m.Is("text/html"):
		return "html", "text/html"
	case m.Is("application/json"):
		return "json", "application/json"
	case m.Is("application/x-ndjson"):
		return "json", "application/x-ndjson"
	}
	return "", ""
}

// unsupported builds the UNSUPPORTED_FILE_TYPE error, naming the detected type when mimetype
// knows it, so the person sees "image/png" rather than a bare refusal.
func unsupported(data []byte, name string) *errs.Error {
	m := mimetype.Detect(data[:min(len(data), sniffLen)]).String()
	if i := strings.IndexByte(m, ';'); i >= 0 {
		m = m[:i]
	}
	e := errs.New(errs.UnsupportedFileType, "%s is not a format Strata reads (detected %s)", baseName(name), m).With("detected", m)
	if m == "application/octet-stream" {
		return e.WithHint("the file looks like binary data; Strata reads text, Markdown, HTML, PDF, DOCX, CSV, JSON and source code")
	}
	return e.WithHint("Strata reads text, Markdown, HTML, PDF, DOCX, CSV, JSON and source code; convert the file to one of these to index it")
}

func extOf(name string) string { return strings.ToLower(filepath.Ext(name)) }

// kindByExt maps a file name to a kind and MIME type; ("", "") for unknown extensions.
func kindByExt(name string) (kind, mime string) {
	ext := extOf(name)
	switch ext {
	case ".txt", ".text", ".log":
		return "text", "text/plain"
	case ".md", ".markdown", ".mdown", ".mkd", ".mdx":
		return "markdown", "text/markdown"
	case ".html", ".htm", ".xhtml":
		return "html", "text/html"
	case ".pdf":
		return "pdf", "application/pdf"
	case ".docx":
		return "docx", docxMime
	case ".csv":
		return "csv", "text/csv"
	case ".tsv", ".tab":
		return "csv", "text/tab-separated-values"
	case ".json":
		return "json", "application/json"
	case ".jsonl", ".ndjson":
		return "json", "application/x-ndjson"
	}
	if lang := languageOf(name); lang != "" {
		return "code", codeMime(lang)
	}
	return "", ""
}

// codeLanguages maps extensions to the language names search filters use.
var codeLanguages = map[string]string{
	".go": "go", ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
	".jsx": "javascript", ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".rs": "rust",
	".java": "java", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp", ".hh": "cpp",
	".rb": "ruby", ".php": "php", ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".fish": "shell",
	".ps1": "powershell", ".sql": "sql", ".swift": "swift", ".kt": "kotlin", ".kts": "kotlin", ".cs": "csharp",
	".scala": "scala", ".lua": "lua", ".r": "r", ".m": "objective-c", ".mm": "objective-c", ".pl": "perl",
	".pm": "perl", ".dart": "dart", ".ex": "elixir", ".exs": "elixir", ".erl": "erlang", ".hs": "haskell",
	".clj": "clojure", ".zig": "zig", ".vue": "vue", ".svelte": "svelte", ".proto": "protobuf",
	".graphql": "graphql", ".tf": "terraform", ".nix": "nix",
	".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".ini": "ini", ".cfg": "ini", ".conf": "ini",
	".xml": "xml", ".css": "css", ".scss": "scss", ".sass": "sass", ".less": "less",
}

// codeFileNames covers build files that have no extension.
var codeFileNames = map[string]string{
	"makefile": "make", "gnumakefile": "make", "dockerfile": "dockerfile", "containerfile": "dockerfile",
	"cmakelists.txt": "cmake", "jenkinsfile": "groovy", "rakefile": "ruby", "gemfile": "ruby",
}

// languageOf names the programming language of a file from its name; "" when it is not code.
func languageOf(name string) string {
	base := strings.ToLower(filepath.Base(name))
	if l, ok := codeFileNames[base]; ok {
		return l
	}
	return codeLanguages[extOf(name)]
}

func codeMime(lang string) string {
	switch lang {
	case "javascript":
		return "text/javascript"
	case "css":
		return "text/css"
	case "xml":
		return "application/xml"
	case "yaml":
		return "application/yaml"
	case "toml":
		return "application/toml"
	case "sql":
		return "application/sql"
	}
	return "text/x-" + lang
}

// NamedFormat is the kind a file's extension promises ("" for an extension Strata does not
// read), so a refusal can say when the bytes are not what the name says (binary data in a .md).
func NamedFormat(name string) string {
	kind, _ := kindByExt(name)
	return kind
}
