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

// readMarkdown keeps the Markdown as it is, so Chunk sees its headings and fences, with two
// changes that keep line numbers intact: front matter lines become blank lines (their data goes
// to Meta and Tags), and setext headings ("Title\n=====") become ATX ("# Title\n"), which is
// the only heading form Chunk knows.
func readMarkdown(text string) *Document {
	doc := &Document{Meta: map[string]any{}}
	fm, body, ok := splitFrontMatter(text)
	if ok {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(fm), &m); err != nil {
			// Keep the lines as they are: a document that merely starts with a rule is not lost.
			doc.Meta["front_matter_error"] = firstLine(err.Error())
			body = text
		} else {
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
	doc.Text = setextToATX(body)
	if doc.Title == "" {
		doc.Title = firstHeading(doc.Text)
	}
	return doc
}

// splitFrontMatter finds a YAML block delimited by "---" lines at the very top. body is the
// text with the block's lines replaced by empty lines.
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
			return fm, strings.Repeat("\n", strings.Count(text[:end], "\n")) + text[end:], true
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

// firstHeading returns the text of the first ATX heading outside code fences.
func firstHeading(text string) string {
	inFence := false
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if !inFence {
			if level, title := atxHeading(strings.TrimRight(l, "\r")); level > 0 {
				return title
			}
		}
	}
	return ""
}

// setextToATX rewrites setext headings to ATX without changing the number of lines: the text
// line gets the '#' prefix and the underline becomes empty. Only the unambiguous form is
// rewritten: a single line of text after a blank line (or at the start), directly underlined.
// A "---" after a blank line is a thematic break and stays.
func setextToATX(text string) string {
	if !strings.Contains(text, "\n=") && !strings.Contains(text, "\n-") && !strings.Contains(text, "\n ") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	changed := false
	inFence := false
	for i := 0; i+1 < len(lines); i++ {
		cur := strings.TrimRight(lines[i], "\r\n")
		t := strings.TrimSpace(cur)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" || (i > 0 && strings.TrimSpace(lines[i-1]) != "") {
			continue
		}
		level := setextUnderline(strings.TrimRight(lines[i+1], "\r\n"))
		if level == 0 || !plainParagraphLine(cur) {
			continue
		}
		eol := lines[i][len(cur):]
		lines[i] = strings.Repeat("#", level) + " " + t + eol
		lines[i+1] = lines[i+1][len(strings.TrimRight(lines[i+1], "\r\n")):]
		changed = true
		i++
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "")
}

// setextUnderline returns 1 for "===", 2 for "---" (up to 3 spaces of indent), else 0.
func setextUnderline(l string) int {
	t := strings.TrimRight(l, " \t")
	u := strings.TrimLeft(t, " ")
	if len(t)-len(u) > 3 || u == "" {
		return 0
	}
	if strings.Trim(u, "=") == "" {
		return 1
	}
	if strings.Trim(u, "-") == "" {
		return 2
	}
	return 0
}

// plainParagraphLine rejects lines that are already some other block (heading, list item,
// quote, table row, indented code), where an underline means something else.
func plainParagraphLine(l string) bool {
	if strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t") {
		return false
	}
	t := strings.TrimSpace(l)
	if level, _ := atxHeading(l); level > 0 {
		return false
	}
	for _, p := range []string{"- ", "* ", "+ ", "> ", "|", "<"} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	if i := strings.IndexAny(t, ".)"); i > 0 && i <= 9 && strings.Trim(t[:i], "0123456789") == "" {
		return false // ordered list item
	}
	return !strings.Contains(t, " | ")
}
