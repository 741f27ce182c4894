package benchdata

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// NotesVersion names the folders benchmarks keep of Notes' output; bump it when Note changes.
const NotesVersion = 1

// Note is the i-th note of a synthetic but real-looking folder of personal notes, as its
// relative path and bytes. It is what the enrichments are measured on: Markdown (front matter
// with a date and tags, headings, trailing #hashtags) and plain text (a title, a date line, a
// tag line), 1–4 KB of real prose (a run of consecutive sentences of one quality-corpus file,
// so that notes drawn from the same file are about the same thing), and e-mail addresses from
// a pool that follows the topic (so that the same people keep appearing together).
//
// Tags are written several ways ("release-planning", "Release Planning", "#ReleasePlanning")
// as people write them, so concept resolution has variants to merge. Dates cluster by topic
// (each topic has its own weeks), so temporal proximity has neighbours. One note in 20 is a
// near-duplicate of an earlier note (the same text with one paragraph rewritten and another
// title: a new version), and one in 50 a byte-identical copy of an earlier note under
// copies/ (the registration's content-hash dedup makes it a duplicate document): the
// similarity and duplicate paths have work to do.
//
// Note(i) depends only on i (and the corpus), so a folder of notes 0..n-1 and a note n added
// to it later are the same whatever was generated before.
func Note(i int) (string, []byte, error) {
	sents, err := corpusOnce()
	if err != nil {
		return "", nil, err
	}
	switch {
	case i >= 50 && i%50 == 13:
		src := i - 1 - (i/50)%40
		p, b, err := Note(src)
		if err != nil {
			return "", nil, err
		}
		return filepath.Join("copies", fmt.Sprintf("copy-%06d-of-%s", i, filepath.Base(p))), b, nil
	case i >= 20 && i%20 == 7:
		src := i - 1 - (i/20)%15
		if src%50 == 13 {
			src-- // a version of a copy is a version of its original
		}
		_, b, err := Note(src)
		if err != nil {
			return "", nil, err
		}
		r := rand.New(rand.NewSource(int64(i)*7919 + 1))
		paras := strings.Split(string(b), "\n\n")
		// rewrite one prose paragraph (not the front matter, title or a heading)
		for tries := 0; tries < 20; tries++ {
			k := 1 + r.Intn(len(paras)-1)
			if strings.HasPrefix(paras[k], "#") || strings.HasPrefix(paras[k], "---") || len(paras[k]) < 80 {
				continue
			}
			doc := sents[r.Intn(len(sents))]
			paras[k] = run(doc, r.Intn(len(doc)), 3)
			break
		}
		paras[0] = strings.Replace(paras[0], "title: ", "title: (revised) ", 1)
		name := fmt.Sprintf("notes/%03d/note-%06d-v2.%s", (i/100)%100, i, ext(src))
		return name, []byte(strings.Join(paras, "\n\n")), nil
	}
	r := rand.New(rand.NewSource(int64(i)*104729 + 17))
	topic := r.Intn(len(sents))
	doc := sents[topic]
	at := r.Intn(len(doc))
	date := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, (topic*11)%330+r.Intn(10))
	tags := []string{tagVocab[topic%len(tagVocab)], tagVocab[(topic*7+3)%len(tagVocab)]}
	if r.Intn(3) == 0 {
		tags = append(tags, tagVocab[r.Intn(len(tagVocab))])
	}
	people := []string{person(topic), person(topic + 1 + r.Intn(3))}
	title := heading(doc[at])
	size := 1000 + r.Intn(3000)
	var sb strings.Builder
	md := ext(i) == "md"
	if md {
		fmt.Fprintf(&sb, "---\ntitle: %s\ndate: %s\ntags: [%s]\n---\n\n# %s\n\n", title, date.Format("2006-01-02"),
			strings.Join(spell(tags, r, 0), ", "), title)
	} else {
		fmt.Fprintf(&sb, "%s\n%s\n\nDate: %s\nTags: %s\n\n", title, strings.Repeat("=", len(title)), date.Format("2 January 2006"),
			strings.Join(spell(tags, r, 1), ", "))
	}
	fmt.Fprintf(&sb, "Notes by %s, with %s.\n\n", people[0], people[1])
	for s := 0; sb.Len() < size; s++ {
		if s > 0 && s%3 == 0 {
			h := heading(doc[(at+s*4)%len(doc)])
			if md {
				fmt.Fprintf(&sb, "## %s\n\n", h)
			} else {
				fmt.Fprintf(&sb, "%s\n%s\n\n", h, strings.Repeat("-", len(h)))
			}
		}
		sb.WriteString(run(doc, at+s*4, 4))
		switch r.Intn(6) {
		case 0:
			fmt.Fprintf(&sb, " Follow-up with %s by %s.", person(topic+r.Intn(4)), date.AddDate(0, 0, 7+r.Intn(14)).Format("2006-01-02"))
		case 1:
			fmt.Fprintf(&sb, " #%s", spell([]string{tags[r.Intn(len(tags))]}, r, 2)[0])
		}
		sb.WriteString("\n\n")
	}
	return fmt.Sprintf("notes/%03d/note-%06d.%s", (i/100)%100, i, ext(i)), []byte(sb.String()), nil
}

// WriteNotes writes notes from..to-1 (Note) under dir.
func WriteNotes(dir string, from, to int) error {
	for i := from; i < to; i++ {
		name, b, err := Note(i)
		if err != nil {
			return err
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("benchmark notes: %w", err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("benchmark notes: %w", err)
		}
	}
	return nil
}

// ext is a note's format: seven in ten are Markdown.
func ext(i int) string {
	if i%10 < 7 {
		return "md"
	}
	return "txt"
}

// run is n consecutive sentences of doc from at, wrapping.
func run(doc []string, at, n int) string {
	parts := make([]string, n)
	for k := range parts {
		parts[k] = doc[(at+k)%len(doc)]
	}
	return strings.Join(parts, " ")
}

// heading is a short title made of a sentence's first words.
func heading(s string) string {
	w := strings.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune(`#[]{}:"'*_|<>=-`+"`", r) {
			return ' '
		}
		return r
	}, s))
	return strings.Join(w[:min(len(w), 6)], " ")
}

// tagVocab: what people tag notes with.
var tagVocab = []string{"release-planning", "budget", "hiring", "security-review", "customer-feedback", "roadmap",
	"incident", "onboarding", "research", "vendor-contracts", "documentation", "performance", "design-review",
	"travel", "legal", "infrastructure", "quarterly-report", "meeting-notes", "migration", "testing"}

// spell writes tags the ways people do: form 0 as in front matter (mostly as declared, some
// capitalised), 1 on a "Tags:" line (words), 2 as a hashtag (CamelCase or as declared).
func spell(tags []string, r *rand.Rand, form int) []string {
	out := make([]string, len(tags))
	for k, t := range tags {
		words := strings.Split(t, "-")
		switch {
		case form == 0 && r.Intn(4) == 0, form == 1:
			for j, w := range words {
				words[j] = strings.ToUpper(w[:1]) + w[1:]
			}
			out[k] = strings.Join(words, " ")
			if form == 0 {
				out[k] = strings.Join(words, "-")
			}
		case form == 2 && r.Intn(2) == 0:
			for j, w := range words {
				words[j] = strings.ToUpper(w[:1]) + w[1:]
			}
			out[k] = strings.Join(words, "")
		default:
			out[k] = t
		}
	}
	return out
}

var firstNames = []string{"ada", "bob", "chen", "dana", "emil", "fatima", "goran", "hana", "ivan", "julia", "kofi", "lena"}
var lastNames = []string{"lovelace", "martin", "wei", "scott", "berg", "khan", "petrov", "sato", "ito", "costa", "mensah", "vogel"}
var domains = []string{"example.com", "example.org", "acme.test", "lab.example.net"}

// person is the e-mail address of the k-th person of the pool (48 people).
func person(k int) string {
	k %= 48
	return fmt.Sprintf("%s.%s@%s", firstNames[k%12], lastNames[(k*5)%12], domains[k/12])
}

var corpus struct {
	once  sync.Once
	sents [][]string
	err   error
}

func corpusOnce() ([][]string, error) {
	corpus.once.Do(func() { corpus.sents, corpus.err = Documents() })
	return corpus.sents, corpus.err
}
