package answer

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/strata-app/strata/backend/heuristics"
	"github.com/strata-app/strata/backend/search"
)

// Passage is one retrieved passage, split into sentences (Split); passages are given best
// first, in the search's order.
type Passage struct {
	Sentences []Sentence
	// Score is the search's score of the passage's result, relative to the best result's
	// (1 for the best; 0 when unknown): how much more than its sentences the search saw.
	Score float64
	// Rank is the rank of the passage's result (0 for the best): a document's second passage
	// has its first one's rank.
	Rank int
	// Subject is what its document says it is about: its title, its file's name, the heading
	// over the passage and the document's first lines ("PAYMENT REMINDER — Invoice
	// BPS-2024-0117"). An amount of money in the document is next to the question's
	// identifier when the subject names it: the total of an invoice is written once, under the
	// invoice's number.
	Subject string
	// Above is 1 + the index of the passage holding the text just before this one in its
	// document (its previous chunk), read only for its section titles; 0: none. A changelog
	// writes a release's version and date once, over everything that changed in it, often a
	// chunk above the line that names the change.
	Above int
	// TitlesOnly: this passage is another's Above; its sentences answer nothing on their own.
	TitlesOnly bool
}

// Picked is a sentence chosen for an answer.
type Picked struct {
	Passage int     // index of its passage
	Index   int     // index of the sentence in its passage
	Share   float64 // share of the question's IDF mass it holds (0 for a context sentence)
	// Context marks a sentence taken only so that the next one can be read: that one begins
	// with a word pointing back ("It returns …", "This means …").
	Context bool
}

// Options bound an extractive answer.
type Options struct {
	MaxSentences int     // sentences chosen on their own merit; their context sentences come with them
	MaxChars     int     // the answer's length budget, context included
	MinShare     float64 // the least share of the question's IDF mass a sentence must hold
	MinKnown     float64 // the least share of the question's words the index must hold for any answer
	Relative     float64 // … and the least share of the best sentence's score
	SameAs       float64 // two sentences sharing this share of the shorter one's words are one
	RankDecay    float64 // a sentence's score is divided by 1 + RankDecay × its passage's rank
	ScorePower   float64 // … and multiplied by its passage's relative Score to this power
	// Mention, when not empty, keeps only sentences that name one of these (each a name's words,
	// NameWords): a question about an entity the store knows is answered by what is said of it.
	Mention [][]string
	// Kind, when not KindAny, keeps only sentences holding a value of that kind other than the
	// question's own identifiers (Required): a question asking when is answered by a date.
	Kind     Kind
	Required Required
	// Define, for a definition question, is its term's words (DefinedTerm): only sentences
	// naming it answer, and one that defines it comes first.
	Define []string
	// People, for a question asking who, are the names (NameWords) of the persons the store
	// knows that the passages may name: a sentence answers only if it names a person.
	People [][]string
}

// DefaultOptions: a few sentences, as a person would answer. Measured on the quality corpus's
// 295 questions (dev, mixed and held-out; phrased in other words than the documents, the hard
// case for sentences copied from them), counting a sentence as relevant when it comes from a
// document judged relevant (TestFitAsk in backend/engine prints the grid, -fit; TestAskQuality
// keeps the defaults' figures from falling):
//
//   - MinShare is search's own floor of evidence (0.2 of the question's weight, see
//     search.DefaultFloor): 0.25 and 0.3 left 14 and 30 questions without an answer instead of
//     5, for hardly more relevant sentences (0.72 and 0.74 against 0.71).
//   - ScorePower 2 and RankDecay 0.2 weigh a sentence by how its passage ranked: the search saw
//     the whole document, its title and the vectors, a sentence holds a few words. Without them
//     0.40 of the chosen sentences came from relevant documents, with them 0.71, and 226
//     answers of 295 held a relevant sentence instead of 220.
//   - MaxSentences 4: 3 chose as precisely (0.72) but left 2 more answers without a relevant
//     sentence.
//   - MinKnown is search's own rule for vectors (search.Floor.Known, 0.5): a question most of
//     whose words the index has never seen is about something the store does not hold, however
//     well a sentence matches the one word it knows ("swallowed" for an unladen swallow).
//   - Relative keeps an answer on the point its best sentence makes; SameAs treats a sentence
//     that repeats another (a paragraph in a chapter and in its one-page book, a copy) as one.
var DefaultOptions = Options{MaxSentences: 4, MaxChars: 900, MinShare: 0.2, MinKnown: 0.5, Relative: 0.5, SameAs: 0.8, RankDecay: 0.2, ScorePower: 2}

// Pick chooses the sentences of an extractive answer and returns them in reading order: by
// passage (best first), then in the passage's own order. A sentence must hold enough of the
// question (MinShare, Relative); the best are taken while the budget lasts, skipping any that
// repeats one already taken; a sentence that begins by pointing back brings the sentence
// before it in its paragraph. Equal scores are ordered by passage and position, so the same
// passages always give the same answer.
func Pick(passages []Passage, q Query, o Options) []Picked {
	if q.Empty() || q.Known() < o.MinKnown {
		return nil
	}
	type cand struct {
		p, i    int
		share   float64
		score   float64
		follow  int  // the next sentences that come along: the value asked for, the steps or list an introduction announces
		defines bool // it defines the term a definition question asks about
		lead    int  // the sentences before it that come along: the steps before a step
		title   [2]int
		titled  bool // title (passage, sentence) is its section's title, which holds the value asked
	}
	own := o.Required.identSet()
	names := o.Required.Flat().Names
	stems := make([][][]string, len(passages))
	var cands []cand
	best := 0.0
	for p, pa := range passages {
		stems[p] = make([][]string, len(pa.Sentences))
		if pa.TitlesOnly {
			continue
		}
		money := o.Kind == KindMoney && namesCurrency(pa.Sentences)
		headerStems := map[string][]string{} // a table header's stems, read once for all its rows
		// The words of the passage's table rows, read once, when a row is a candidate
		// (otherRowNames).
		var rowWords [][]string
		rows := func() [][]string {
			if rowWords == nil {
				rowWords = make([][]string, len(pa.Sentences))
				for i, s := range pa.Sentences {
					if s.Unit == UnitRow {
						rowWords[i] = search.Words(s.Text)
					}
				}
			}
			return rowWords
		}
		holds := func(text string) bool {
			switch o.Kind {
			case KindVersion:
				return o.Kind.holds(text, own) && versionOfAsked(text, own, o.Required)
			case KindList:
				return enumerates(text)
			case KindMoney:
				return holdsMoney(text, money)
			case KindPerson:
				return holdsPerson(text, o.People)
			}
			return o.Kind.holds(text, own)
		}
		for i, s := range pa.Sentences {
			if s.Unit == UnitCode && o.Kind != KindHowTo || s.Unit == UnitTitle && o.Kind != KindDate && o.Kind != KindVersion ||
				s.Header || headsTable(pa.Sentences, i) {
				continue // code answers how to do something, nothing else; a header names columns
			}
			if mailHeader(s.Text) || s.Unit == UnitProse && strings.HasSuffix(strings.TrimRight(s.Text, `"')]’”`), "?") {
				// "From: … To: … Subject: …" says who wrote to whom, not what; a FAQ's question
				// ("Why do long usernames get printed as numbers?") answers nothing.
				continue
			}
			st := search.Stems(s.Text)
			stems[p][i] = st
			share, _ := q.Share(st)
			if s.Unit == UnitRow {
				// A row is read with the header naming its cells ("Backend | OS | Status" over
				// "ReadDirectoryChangesW | Windows | Supported"), but it must say something of its
				// own: the header's words alone make every row of the table alike.
				if share > 0 {
					if h := headerOf(pa.Sentences, i); h != "" {
						hs, ok := headerStems[h]
						if !ok {
							hs = search.Stems(h)
							headerStems[h] = hs
						}
						share, _ = q.Share(append(slices.Clip(hs), st...))
					}
				}
			}
			if share < o.MinShare || !mentions(s.Text, o.Mention) {
				continue
			}
			follow := 0
			var titleAt [2]int
			titled := false
			if strings.HasSuffix(s.Text, ":") && s.Unit == UnitProse {
				// "Here's a table of the ways it can be used:", "To install it, run:": the list,
				// rows or commands it announces come along, or it says nothing (issue 24).
				follow = announced(pa.Sentences, i, o.Kind)
				if follow == 0 {
					continue
				}
			}
			if follow == 0 && !holds(s.Text) && !(o.Kind == KindList && (s.Item || s.Unit == UnitRow)) {
				// "OLLAMA_MAX_QUEUE - The maximum number of requests Ollama will queue. The default
				// is 512.": the sentence that matches names the thing, the next one its value. A
				// title (an unterminated paragraph of its own: a note's "Larchmont Allotment Soc.
				// — website kickoff") is followed by what it heads: its next paragraph.
				next := i+1 < len(pa.Sentences) && holds(pa.Sentences[i+1].Text) &&
					(pa.Sentences[i+1].Para == s.Para || pa.Sentences[i+1].Para == s.Para+1 && isTitle(pa.Sentences, i))
				switch {
				case next:
					follow = 1
				case (o.Kind == KindVersion || o.Kind == KindDate) && len(own) == 0:
					// "Which version of sed brought in --debug?": the line naming the change
					// holds no version; the title of its section does ("* Noteworthy changes in
					// release 4.6 (2018-12-19)"), the nearest above it that holds one.
					t, ok := sectionTitle(passages, p, i, o.Kind.Holds)
					if !ok {
						continue
					}
					titleAt, titled = t, true
				default:
					continue
				}
			}
			lead := 0
			if o.Kind == KindHowTo && s.Step && follow == 0 {
				// A step of a procedure comes with the whole procedure: the steps before it and
				// after it.
				follow, lead = steps(pa.Sentences, i), stepsBefore(pa.Sentences, i)
			}
			if o.Kind.AsksValue() && len(own) > 0 {
				with := s.Text
				for k := i + 1; k <= i+follow; k++ {
					with += " " + pa.Sentences[k].Text
				}
				if o.Kind == KindMoney {
					with += "\n" + pa.Subject // an amount is a record's: its number is written once, on top
				}
				if !namesIdent(with, own) {
					continue // the value next to the question's subject (3.8), not another's
				}
			}
			if leansBack(s.Text) && (i == 0 || pa.Sentences[i-1].Para != s.Para) {
				// "This is equivalent to pub(in super)." at the start of its own list item or
				// paragraph points back to something outside it: read alone it says something
				// else, or something false (issue 24).
				continue
			}
			if s.Unit == UnitRow && len(names) > 0 && otherRowNames(rows(), i, names) {
				continue // the question names Derek Ashworth, whose row is another: Gordon Pell's is no answer
			}
			if s.Unit == UnitRow && o.Required.onlyInEmptyCells(s.Text, headerOf(pa.Sentences, i)) {
				continue // "phone" is the heading of this row's empty cell: the row says no phone
			}
			if len(o.Define) > 0 && !HoldsTerm(s.Text, o.Define) && s.Unit != UnitRow {
				continue // a definition question is answered by what is said of its term
			}
			score := share / (1 + o.RankDecay*float64(pa.Rank))
			if o.ScorePower > 0 && pa.Score > 0 {
				score *= math.Pow(pa.Score, o.ScorePower)
			}
			if !terminated(s.Text) && follow == 0 {
				score *= 0.85 // a fragment (a label, a parameter's description) says less than a sentence
			}
			defines := len(o.Define) > 0 && Defines(s.Text, o.Define)
			if defines {
				score *= 1.5 // "X is …", "X means …": the definition, not a sentence that uses X
			}
			cands = append(cands, cand{p, i, share, score, follow, defines, lead, titleAt, titled})
			best = max(best, score)
		}
	}
	// A definition question is answered by the sentences that define its term when there
	// are any: the others only use it.
	if slices.ContainsFunc(cands, func(c cand) bool { return c.defines }) {
		cands = slices.DeleteFunc(cands, func(c cand) bool { return !c.defines })
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		if cands[a].p != cands[b].p {
			return cands[a].p < cands[b].p
		}
		return cands[a].i < cands[b].i
	})
	var out []Picked
	taken := map[[2]int]bool{}
	chars, chosen := 0, 0
	repeats := func(p, i int) bool {
		for _, k := range out {
			// A code block repeats no sentence of prose, nor a prose sentence a block: the
			// command says how, the sentence naming its URL says what.
			if (passages[p].Sentences[i].Unit == UnitCode) != (passages[k.Passage].Sentences[k.Index].Unit == UnitCode) {
				continue
			}
			if same(stems[p][i], stems[k.Passage][k.Index], o.SameAs) {
				return true
			}
		}
		return false
	}
	topShare := 0.0
	if len(cands) > 0 {
		topShare = cands[0].share
	}
	for _, c := range cands {
		if chosen == o.MaxSentences {
			break
		}
		if c.score < o.Relative*best {
			// A value asked for that another passage gives in as many of the question's words
			// ("Open Day: Sat 8 June" in the AGM minutes, "Sat 15 June" in a later meeting's
			// notes) is shown too, however that passage ranked: sources that disagree are all
			// shown (issue 24).
			if !o.Kind.AsksValue() || c.share < topShare {
				continue
			}
		}
		s := passages[c.p].Sentences[c.i]
		if taken[[2]int{c.p, c.i}] || repeats(c.p, c.i) {
			continue
		}
		need := len(s.Text)
		var next []Picked
		for k := c.i + 1; k <= c.i+c.follow; k++ {
			if !taken[[2]int{c.p, k}] {
				next = append(next, Picked{Passage: c.p, Index: k, Context: true})
				need += len(passages[c.p].Sentences[k].Text)
			}
		}
		for k := c.i - c.lead; k < c.i; k++ {
			if !taken[[2]int{c.p, k}] {
				next = append(next, Picked{Passage: c.p, Index: k, Context: true})
				need += len(passages[c.p].Sentences[k].Text)
			}
		}
		if c.titled && !taken[c.title] {
			next = append(next, Picked{Passage: c.title[0], Index: c.title[1], Context: true})
			need += len(passages[c.title[0]].Sentences[c.title[1]].Text)
		}
		var ctx *Picked
		if leansBack(s.Text) && c.i > 0 && passages[c.p].Sentences[c.i-1].Para == s.Para && !taken[[2]int{c.p, c.i - 1}] &&
			!repeats(c.p, c.i-1) {
			ctx = &Picked{Passage: c.p, Index: c.i - 1, Context: true}
			need += len(passages[c.p].Sentences[c.i-1].Text)
		}
		if chars+need > o.MaxChars {
			if ctx == nil || chars+need-len(passages[c.p].Sentences[c.i-1].Text) > o.MaxChars {
				continue // a shorter one may still fit
			}
			need -= len(passages[c.p].Sentences[c.i-1].Text)
			ctx = nil
		}
		if ctx != nil {
			out = append(out, *ctx)
			taken[[2]int{ctx.Passage, ctx.Index}] = true
		}
		out = append(out, Picked{Passage: c.p, Index: c.i, Share: c.share})
		taken[[2]int{c.p, c.i}] = true
		for _, n := range next {
			out = append(out, n)
			taken[[2]int{n.Passage, n.Index}] = true
		}
		chars += need
		chosen++
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Passage != out[b].Passage {
			return out[a].Passage < out[b].Passage
		}
		return out[a].Index < out[b].Index
	})
	return out
}

// maxTitleLookback bounds the sentences looked at above one for its section's title.
const maxTitleLookback = 200

// sectionTitle finds the title of the section sentence i of passage p is in that holds what
// is asked (holds): the nearest sentence above it, in its passage or the passages above it
// (Passage.Above), that stands as a title (standsAsTitle). A title above it that holds nothing
// asked (a subsection's "** New Features") is passed over.
func sectionTitle(passages []Passage, p, i int, holds func(string) bool) ([2]int, bool) {
	look := 0
	for q, from := p, i-1; ; {
		ss := passages[q].Sentences
		for j := from; j >= 0 && look < maxTitleLookback; j, look = j-1, look+1 {
			if standsAsTitle(ss, j) && holds(ss[j].Text) {
				return [2]int{q, j}, true
			}
		}
		if passages[q].Above == 0 || look >= maxTitleLookback {
			return [2]int{}, false
		}
		q = passages[q].Above - 1
		from = len(passages[q].Sentences) - 1
	}
}

// standsAsTitle reports whether sentence i is a heading with a number (UnitTitle) or a short
// unterminated item that is a paragraph of its own (an outline's "* Noteworthy changes in
// release 4.6", a list's "- 2026-09-28 v1.60.0:"). A paragraph is no title, however short:
// "Go 1.23 or newer is required; the documentation is at https://…" heads nothing.
func standsAsTitle(ss []Sentence, i int) bool {
	s := ss[i]
	if s.Unit == UnitTitle {
		return true
	}
	return s.Unit == UnitProse && s.Item && len(s.Text) <= 120 && !terminated(s.Text) && (i == 0 || ss[i-1].Para != s.Para) &&
		(i+1 >= len(ss) || ss[i+1].Para != s.Para)
}

// same reports whether two sentences (as stems) say the same thing: the share of the shorter
// one's distinct words that the other holds reaches at least.
func same(a, b []string, atLeast float64) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	set := make(map[string]bool, len(b))
	for _, s := range b {
		set[s] = true
	}
	distinct := map[string]bool{}
	shared := 0
	for _, s := range a {
		if distinct[s] {
			continue
		}
		distinct[s] = true
		if set[s] {
			shared++
		}
	}
	return len(distinct) > 0 && float64(shared) >= atLeast*float64(len(distinct))
}

// backWords begin a sentence that points back to the one before it: read alone, "It returns a
// Promise" does not say what returns one.
var backWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`it its this that these those they them their such however therefore thus hence
		otherwise instead likewise similarly also then but and or so he she his her`) {
		backWords[w] = true
	}
}

// leansBack reports whether a sentence begins with a word that points back.
func leansBack(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	w := strings.ToLower(strings.TrimRight(f[0], ",;:"))
	return backWords[w] || len(f) > 1 && strings.ToLower(f[0]) == "for" && strings.ToLower(strings.TrimRight(f[1], ",")) == "example" ||
		len(f) > 2 && strings.ToLower(f[0]) == "in" && strings.ToLower(f[1]) == "this" && strings.HasPrefix(strings.ToLower(f[2]), "case")
}

// terminated reports whether a sentence ends as a sentence does, with a stop (before any
// closing quotes or brackets).
func terminated(s string) bool {
	s = strings.TrimRight(s, `"')]’”`)
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?")
}

// mentions reports whether text names one of names as whole words (true when there are none).
func mentions(text string, names [][]string) bool {
	if len(names) == 0 {
		return true
	}
	ws := search.Words(text)
	for _, n := range names {
		if NameAt(ws, n) >= 0 {
			return true
		}
	}
	return false
}

// isTitle reports whether sentence i is a title: a prose line standing alone as its
// paragraph, unterminated.
func isTitle(ss []Sentence, i int) bool {
	s := ss[i]
	return s.Unit == UnitProse && !s.Item && !terminated(s.Text) && (i == 0 || ss[i-1].Para != s.Para) &&
		(i+1 >= len(ss) || ss[i+1].Para != s.Para)
}

// steps is how many numbered items follow the step at i, each in the paragraph after the one
// before it, up to maxAnnounced.
func steps(ss []Sentence, i int) int {
	n, para := 0, ss[i].Para
	for j := i + 1; j < len(ss) && n < maxAnnounced; j++ {
		switch {
		case ss[j].Para == para:
		case ss[j].Para == para+1 && ss[j].Step:
			para = ss[j].Para
		default:
			return n
		}
		n++
	}
	return n
}

// stepsBefore is how many numbered items come before the step at i in its list, each in the
// paragraph before the next, up to maxAnnounced.
func stepsBefore(ss []Sentence, i int) int {
	n, para := 0, ss[i].Para
	for j := i - 1; j >= 0 && n < maxAnnounced; j-- {
		switch {
		case ss[j].Para == para:
		case ss[j].Para == para-1 && ss[j].Step:
			para = ss[j].Para
		default:
			return n
		}
		n++
	}
	return n
}

// maxAnnounced bounds the list items, rows or code blocks an introduction brings along.
const maxAnnounced = 8

// announced is how many sentences after sentences[i] (which ends with a colon) it announces:
// the list items, table rows or (for a how-to question) code blocks that follow it, in the
// paragraphs after its own, up to maxAnnounced. Zero when none follow.
func announced(ss []Sentence, i int, k Kind) int {
	n := 0
	para := ss[i].Para
	for j := i + 1; j < len(ss) && n < maxAnnounced; j++ {
		s := ss[j]
		switch {
		case s.Para == para:
			if n == 0 {
				return 0 // the paragraph goes on: not an introduction
			}
		case s.Para != para+1:
			return n // a gap: what followed was something else
		case s.Item || s.Unit == UnitRow || s.Unit == UnitCode && k == KindHowTo:
		default:
			return n
		}
		para = s.Para
		n++
	}
	return n
}

// headerOf is the header row of the table the row at i belongs to ("" when the passage does
// not show it): the nearest row before it marked as a header, else the first row of its table
// when something other than a row comes before that one (a Markdown table as the reader
// renders it has lost the separator that marks its header; a passage that begins among the
// rows may not hold it).
func headerOf(ss []Sentence, i int) string {
	j := i - 1
	for ; j >= 0 && ss[j].Unit == UnitRow; j-- {
		if ss[j].Header {
			return ss[j].Text
		}
	}
	if first := j + 1; first < i && (first > 0 || looksLikeHeader(ss[first].Text)) {
		return ss[first].Text
	}
	return ""
}

// otherRowNames reports whether one of the names the question requires is written in another
// row of the table but not in row i (rows: each row's words, nil for other sentences): the
// table has a row for it, and this one is another's.
func otherRowNames(rows [][]string, i int, names []string) bool {
	for _, n := range names {
		if NameAt(rows[i], []string{n}) >= 0 {
			continue
		}
		for j, ws := range rows {
			if j != i && ws != nil && NameAt(ws, []string{n}) >= 0 {
				return true
			}
		}
	}
	return false
}

// versionOfAsked reports whether a sentence writes a version of something the question names:
// a version token right after one of its words ("Go 1.23 or newer", "requires node 14+"), or
// the question's own identifier. "goldmark is compliant with CommonMark 0.31.2" gives
// CommonMark's version, not Go's.
func versionOfAsked(text string, own map[string]bool, r Required) bool {
	asked := map[string]bool{}
	f := r.Flat()
	for _, w := range append(f.Names, f.Words...) {
		for _, f := range Inflections(w) {
			asked[f] = true
		}
	}
	prev := ""
	for _, t := range identTokens(withoutRefs(text)) {
		if hasDigit(t) && (own[normIdent(t)] || asked[prev] || asked[strings.TrimRight(t, "0123456789.+x")]) {
			return true
		}
		prev = t
	}
	return false
}

// mailHeader reports whether a sentence is an e-mail's header: two or more of its fields
// ("From:", "To:", "Date:", "Subject:", "Cc:") written as labels.
func mailHeader(s string) bool {
	n := 0
	for _, f := range []string{"From: ", "To: ", "Date: ", "Subject: ", "Cc: ", "Sent: "} {
		if strings.HasPrefix(s, f) || strings.Contains(s, " "+f) {
			n++
		}
	}
	return n >= 2
}

// headsTable reports whether the row at i is the unmarked header of its table: its first row,
// followed by another, reading as column headings.
func headsTable(ss []Sentence, i int) bool {
	return ss[i].Unit == UnitRow && (i == 0 || ss[i-1].Unit != UnitRow) && i+1 < len(ss) && ss[i+1].Unit == UnitRow &&
		looksLikeHeader(ss[i].Text)
}

// looksLikeHeader reports whether a row reads as column headings: every cell a few words,
// none empty, no digits, no address. A passage that begins with a row may begin among the
// data: such a row is a header only when it reads as one.
func looksLikeHeader(row string) bool {
	for _, c := range heuristics.RowCells(row) {
		if c == "" || len(strings.Fields(c)) > 4 || strings.ContainsAny(c, "0123456789@") {
			return false
		}
	}
	return true
}
