package extract

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// maxFrontMatter bounds the YAML block parsed from a note's head; real front matter is a few
// hundred bytes, and the YAML parser should not see megabytes of someone's data file.
const maxFrontMatter = 64 << 10

// readMarkdown reads front matter into Meta and Tags and the rest with goldmark (mdtext.go):
// the text is prose with headings as ATX lines, and its source map cites the file's lines.
func readMarkdown(text string) *Document {
	doc := &Document{Meta: map[string]any{}}
	body := text
	if fm, blanked, ok := splitFrontMatter(text); ok {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(fm), &m); err != nil {
			// Keep the lines as they are: a document that merely starts with a rule is not lost.
			doc.Meta["front_matter_error"] = firstLine(err.Error())
		} else {
			body = blanked
			budget := 10000
			for k, v := range m {
				doc.Meta[k] = jsonable(v, 0, &budget)
			}
			doc.Tags = tagsOf(m)
			if t, ok := m["title"].(string); ok {
				doc.Title = strings.TrimSpace(t)
			}
		}
	}
	doc.Text, doc.Source, doc.Regions = markdownText(body)
	if doc.Title == "" {
		for _, r := range doc.Regions {
			if r.Kind == RegionHeading {
				_, doc.Title = atxHeading(doc.Text[r.Start:r.End])
				break
			}
		}
	}
	return doc
}

// splitFrontMatter finds a YAML block delimited by "---" lines at the very top. body is the
// text with the block's bytes blanked (newlines kept), so offsets and lines stay the file's.
func splitFrontMatter(text string) (fm, body string, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if !found || strings.TrimRight(first, " \t\r") != "---" {
		return "", text, false
	}
	off := len(first) + 1
	for off < len(text) && off <= maxFrontMatter {
		l, _, _ := strings.Cut(text[off:], "\n")
		if t := strings.TrimRight(l, " \t\r"); t == "---" || t == "..." {
			end := min(off+len(l)+1, len(text)) // through the closing line's newline
			fm = rest[:off-len(first)-1]
			return fm, blank(text[:end]) + text[end:], true
		}
		off += len(l) + 1
	}
	return "", text, false
}

// tagsOf reads `tags:` (or `tag:`) as a YAML list or a comma/space separated string; a leading
// '#' is dropped so "#work" and "work" are one tag.
func tagsOf(m map[string]any) []string {
	var raw []string
	for _, key := range []string{"tags", "tag"} {
		switch v := m[key].(type) {
		case string:
			raw = append(raw, strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == ';' })...)
		case []any:
			for _, x := range v {
				if x != nil {
					raw = append(raw, fmt.Sprint(x))
				}
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range raw {
		t = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(t), "#"))
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// jsonable converts YAML values to JSON-friendly ones (string keys, RFC 3339 times) because
// Meta is stored as JSON. budget bounds the walk: YAML aliases let a few lines describe a
// value with billions of nodes ("billion laughs"), which must not be expanded.
func jsonable(v any, depth int, budget *int) any {
	*budget--
	if *budget < 0 || depth > 32 {
		return nil
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range sortedKeys(x) {
			out[k] = jsonable(x[k], depth+1, budget)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[fmt.Sprint(k)] = jsonable(val, depth+1, budget)
		}
		return out
	case []any:
		out := make([]any, 0, len(x))
		for _, e := range x {
			out = append(out, jsonable(e, depth+1, budget))
		}
		return out
	case time.Time:
		return x.Format(time.RFC3339)
	case string, bool, nil, int, int64, uint64, float64, float32, int32, uint32, int8, int16, uint8, uint16, uint:
		return x
	default:
		return fmt.Sprint(x)
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(l)
}

// blank replaces every byte of s but line breaks with a space.
func blank(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}
