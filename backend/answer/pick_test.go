package answer

import (
	"slices"
	"strings"
	"testing"

	"github.com/strata-app/strata/backend/search"
)

func passage(rank int, score float64, text string) Passage {
	return Passage{Sentences: Split(text), Score: score, Rank: rank}
}

func pickedTexts(ps []Passage, picked []Picked) []string {
	var out []string
	for _, k := range picked {
		out = append(out, ps[k.Passage].Sentences[k.Index].Text)
	}
	return out
}

var overflowQuery = NewQuery("what happens when an integer overflows in release mode", []search.Term{
	{Tokens: []string{"happen"}, IDF: 0.5, DF: 1},
	{Tokens: []string{"integ"}, IDF: 2, DF: 1},
	{Tokens: []string{"overflow"}, IDF: 4, DF: 1},
	{Tokens: []string{"releas"}, IDF: 2, DF: 1},
	{Tokens: []string{"mode"}, IDF: 1.5, DF: 1},
})

func TestPickAnswersInReadingOrder(t *testing.T) {
	ps := []Passage{
		passage(0, 1, "Rust has integer types of several sizes. When compiling in debug mode, Rust checks for integer overflow and panics. "+
			"In release mode, Rust does not check for integer overflow: values wrap around. The weather is nice today in the mountains."),
		passage(1, 0.9, "In release mode, Rust does not check for integer overflow, values wrap around. Cargo builds in debug mode by default."),
		passage(2, 0.2, "Integer overflow in release mode is a classic bug in C programs written decades ago."),
	}
	got := pickedTexts(ps, Pick(ps, overflowQuery, DefaultOptions))
	want := []string{
		"When compiling in debug mode, Rust checks for integer overflow and panics.",
		"In release mode, Rust does not check for integer overflow: values wrap around.",
	}
	// The copy in passage 1 repeats passage 0 (SameAs); passage 2 ranked far lower (its
	// score is a fifth of the best: squared, a twenty-fifth); the weather says nothing.
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("picked:\n%s", strings.Join(got, "\n"))
	}
}

func TestPickFloorAndBudget(t *testing.T) {
	ps := []Passage{passage(0, 1, "Nothing in this sentence is about the question at all. Whole numbers have no fractions, said nobody.")}
	o := DefaultOptions
	if got := Pick(ps, overflowQuery, o); len(got) != 0 {
		t.Fatalf("below the floor: %v", pickedTexts(ps, got))
	}
	long := passage(0, 1, strings.Repeat("Integer overflow in release mode wraps values around silently here. ", 1)+
		"Integer overflow in release mode is not checked by the compiler at all. Release mode integer overflow wraps around to the minimum value again.")
	o.MaxChars = 80
	if got := Pick([]Passage{long}, overflowQuery, o); len(got) != 1 {
		t.Fatalf("budget of 80 characters: %v", pickedTexts([]Passage{long}, got))
	}
}

// TestPickBringsContext: a sentence that points back ("It …") comes with the sentence before
// it in its paragraph, so the answer can be read.
func TestPickBringsContext(t *testing.T) {
	ps := []Passage{passage(0, 1, "The wrapping_add method is one of several on integer types. It handles overflow in release mode by wrapping explicitly.")}
	got := Pick(ps, overflowQuery, DefaultOptions)
	if len(got) != 2 || !got[0].Context || got[1].Context {
		t.Fatalf("picked: %+v", got)
	}
}

// TestPickIsDeterministic: equal scores are ordered by passage and position.
func TestPickIsDeterministic(t *testing.T) {
	ps := []Passage{
		passage(0, 1, "Integer overflow in release mode wraps around silently."),
		passage(0, 1, "Integer overflow in release mode is not checked at all."),
	}
	first := pickedTexts(ps, Pick(ps, overflowQuery, DefaultOptions))
	for range 20 {
		if again := pickedTexts(ps, Pick(ps, overflowQuery, DefaultOptions)); strings.Join(again, "|") != strings.Join(first, "|") {
			t.Fatalf("%v then %v", first, again)
		}
	}
}

// TestPickMention: when the question names an entity, only sentences that name it answer.
func TestPickMention(t *testing.T) {
	q := NewQuery("what did acme invoice in 2025", []search.Term{{Tokens: []string{"acm"}, IDF: 3, DF: 1}, {Tokens: []string{"invoic"}, IDF: 2, DF: 1}, {Tokens: []string{"2025"}, IDF: 1, DF: 1}})
	ps := []Passage{passage(0, 1, "Rust 1.90 was released in 2025 with a new edition of invoices. Acme Corp sent its invoice for 2025 in March.")}
	o := DefaultOptions
	o.Mention = [][]string{NameWords("Acme Corp")}
	got := pickedTexts(ps, Pick(ps, q, o))
	if len(got) != 1 || !strings.HasPrefix(got[0], "Acme Corp sent") {
		t.Fatalf("picked: %q", got)
	}
}

// TestPickKeepsToItsUnit: a sentence that points back ("This is equivalent to …") at the start
// of its own list item is not an answer on its own, and a definition question is answered by
// the sentence that defines its term, not by a neighbour's (issue 24: "pub(crate) makes an item
// visible within the current crate. This is equivalent to pub(in super)." was false).
func TestPickKeepsToItsUnit(t *testing.T) {
	text := "pub(in path) makes an item visible within the provided path.\n" +
		"pub(crate) makes an item visible within the current crate.\n" +
		"This is equivalent to pub(in crate) when the item is in the crate root module.\n" +
		"pub(self) makes an item visible to the current module only.\n"
	ps := []Passage{{Sentences: SplitLines(text), Score: 1}}
	q := "What does pub(crate) mean?"
	o := optionsFor(q)
	got := pickFor(q, ps, o)
	if len(got) != 1 || got[0] != "pub(crate) makes an item visible within the current crate." {
		t.Fatalf("picked %q", got)
	}
}

// TestPickCodeIsNoRepeatOfProse: the command that installs a package shares its words with a
// sentence naming the package's URL; it is still the answer to "how do I install", not a
// near-copy of that sentence (issue 24: "How do I install pflag?" lost its go get block).
func TestPickCodeIsNoRepeatOfProse(t *testing.T) {
	text := "You can see the documentation of the pflag package at http://localhost:6060/pkg/github.com/spf13/pflag in go.\n\n" +
		"Install by running:\n\n```\ngo get github.com/spf13/pflag\n```\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	q := "How do I install pflag?"
	o := optionsFor(q)
	got := pickFor(q, ps, o)
	if !slices.Contains(got, "go get github.com/spf13/pflag") {
		t.Errorf("picked %q", got)
	}
}

// TestPickDefinitionOnly: a definition question is answered by the sentence that defines its
// term, alone, when one is there; "A file trigger is …" defines another kind of trigger.
func TestPickDefinitionOnly(t *testing.T) {
	text := "A file trigger is guaranteed to be activated before the dpkg file is modified.\n\n" +
		"Each dpkg trigger has a name, and packages declare the triggers they are interested in.\n\n" +
		"A dpkg trigger is a facility that allows events caused by one package to be processed later by another.\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	q := "What is a dpkg trigger?"
	o := optionsFor(q)
	got := pickFor(q, ps, o)
	if len(got) != 1 || !strings.HasPrefix(got[0], "A dpkg trigger is a facility") {
		t.Errorf("picked %q", got)
	}
}

// TestPickLeavesEmptyCells: a row answers about a column only when its cell there is filled
// (issue 24: asked for Derek Ashworth's phone, his row with an empty phone cell was the
// answer). The header is the table's first row as the Markdown reader renders it (no separator
// line left), or the row marked as one.
func TestPickLeavesEmptyCells(t *testing.T) {
	for _, text := range []string{
		"Name | Role | Email | Phone\nGordon Pell | Chair | gordon@bt.com | 07700 900 412\nDerek Ashworth | ex-webmaster | derek@outlook.com | \n",
		"| Name | Role | Email | Phone |\n|---|---|---|---|\n| Gordon Pell | Chair | gordon@bt.com | 07700 900 412 |\n| Derek Ashworth | ex-webmaster | derek@outlook.com | — |\n",
		// a spreadsheet's rows as the CSV reader writes them: an empty cell is left out
		"Name | Role | Email | Phone\nName: Gordon Pell | Role: Chair | Email: gordon@bt.com | Phone: 07700 900 412\nName: Derek Ashworth | Role: ex-webmaster | Email: derek@outlook.com\n",
	} {
		ps := []Passage{{Sentences: Split(text), Score: 1}}
		o := DefaultOptions
		for q, want := range map[string]string{
			"What's Derek Ashworth's phone number?": "",
			"What's Gordon Pell's phone number?":    "Gordon Pell",
			"What's Derek Ashworth's email?":        "Derek Ashworth",
		} {
			o = optionsFor(q)
			got := pickFor(q, ps, o)
			switch {
			case want == "" && len(got) > 0:
				t.Errorf("%q: picked %q", q, got)
			case want != "" && (len(got) != 1 || !strings.Contains(got[0], want)):
				t.Errorf("%q: picked %q, want the row of %s", q, got, want)
			}
		}
	}
}

// TestPickBringsWhatAnIntroductionAnnounces: "Here's a table of …:" answers with its rows; an
// introduction whose list is not there says nothing and is left out (issue 24: the paragraph
// that introduces the lifetime elision rules, none of the rules).
func TestPickBringsWhatAnIntroductionAnnounces(t *testing.T) {
	with := "Here's a table of all the ways PhantomData could be used for variance:\n\n" +
		"| Phantom type | variance of T |\n|---|---|\n| PhantomData<T> | covariant |\n| PhantomData<fn(T)> | contravariant |\n"
	q := "How can PhantomData be used for variance?"
	o := optionsFor(q)
	ps := []Passage{{Sentences: Split(with), Score: 1}}
	got := pickFor(q, ps, o)
	if len(got) < 3 || !strings.HasSuffix(got[0], ":") || got[1] != "| Phantom type | variance of T |" || got[len(got)-1] != "| PhantomData<fn(T)> | contravariant |" {
		t.Fatalf("with its table: %q", got)
	}
	without := "The compiler applies the lifetime elision rules in this order:\n\n# Next section\n\nLifetimes of functions are elided by the compiler in many cases.\n"
	q = "What are the lifetime elision rules?"
	o.Kind, o.Required, o.Define = KindOf(q), RequiredTerms(q), DefinedTerm(q)
	ps = []Passage{{Sentences: Split(without), Score: 1}}
	for _, s := range pickFor(q, ps, o) {
		if strings.HasSuffix(s, ":") {
			t.Fatalf("an introduction without what it announces: %q", s)
		}
	}
}

// TestKindOf: what a question asks for, read from its first words.
func TestKindOf(t *testing.T) {
	for q, want := range map[string]Kind{
		"When was grep 3.8 released?":                         KindDate,
		"When should basil flower buds be pinched off?":       KindAny,
		"How many requests will the server queue?":            KindQuantity,
		"What's the total on invoice BPS-2024-0118?":          KindMoney,
		"How much do I owe Brackwater?":                       KindMoney,
		"How many invoices did Brackwater send?":              KindQuantity,
		"How much memory does the model need?":                KindQuantity,
		"Which version of Go do I need?":                      KindVersion,
		"How do I install pflag?":                             KindHowTo,
		"What is a dpkg trigger?":                             KindDefine,
		"What does context length mean for an Ollama model?":  KindDefine,
		"What is the rent for a half plot?":                   KindMoney,
		"Who is Hannah Voss?":                                 KindAny,
		"Who was at the website kickoff meeting?":             KindPerson,
		"Who should Fenwick invoices go to?":                  KindPerson,
		"Which file-watching backends does fsnotify support?": KindList,
		"What were the action items from the meeting?":        KindList,
		"Which port is SSH on?":                               KindQuantity,
		"What's included in the website quote?":               KindList,
		// the question after a leading clause; an amount asked by its verb; "what's left" is
		// a clause, not a term to define
		"After the credit note, what's left to pay on the invoice?": KindMoney,
		"What did Lanigan's charge for the scores?":                 KindMoney,
		"In a bash pipeline, how do I make it fail?":                KindHowTo,
	} {
		if got := KindOf(q); got != want {
			t.Errorf("%q: %v, want %v", q, got, want)
		}
	}
	if got := DefinedTerm("What does context length mean for an Ollama model?"); strings.Join(got, " ") != "context length" {
		t.Errorf("term %q", got)
	}
}

// TestPickMoney: a question for an amount of money is answered by a sentence writing one, on
// the record the question names: the reminder's balance (its letter names the invoice in its
// first lines), not the invoice's dates, nor another invoice's total.
func TestPickMoney(t *testing.T) {
	reminder := Passage{Sentences: Split("The outstanding balance is £2,148.60.\n"), Score: 1,
		Subject: "PAYMENT REMINDER — Invoice BPS-2024-0117"}
	invoice := Passage{Sentences: Split("Invoice no.: BPS-2024-0117. Invoice date: 14 February 2024, due 15 March 2024.\n"), Score: 1,
		Subject: "INVOICE BPS-2024-0117"}
	other := Passage{Sentences: Split("Description  Qty  £\nThe invoice balance is 3,135.00 in total.\n"), Score: 1, Subject: "INVOICE Q-1043"}
	own := Passage{Sentences: Split("Description  Qty  £\nThe invoice balance is 3,135.00 in total.\n"), Score: 1, Subject: "INVOICE Q-1043"}
	q := "What is the balance of invoice BPS-2024-0117?"
	o := optionsFor(q)
	ps := []Passage{invoice, reminder, other}
	got := pickFor(q, ps, o)
	if len(got) != 1 || got[0] != "The outstanding balance is £2,148.60." {
		t.Errorf("picked %q", got)
	}
	q = "What is the balance of invoice Q-1043?"
	o = optionsFor(q)
	ps = []Passage{own}
	if got := pickFor(q, ps, o); len(got) != 1 || !strings.Contains(got[0], "3,135.00") {
		t.Errorf("cents under a currency column: picked %q", got)
	}
}

// TestPickWho: a question asking who is answered by a sentence naming a person the store knows
// (or an address), here the paragraph a note's title heads; capitalised words that are no
// person ("The Annual General Meeting") answer nothing.
func TestPickWho(t *testing.T) {
	text := "Larchmont committee — website kickoff\n5 Mar 2024, 18:30, committee hut (by plot 1), ~1h15\n\n" +
		"present: Maren (me), Gordon Pell (chair), Priya Natarajan (treasurer), Eileen Farrow (secretary), Tom Bexley (new member)\n\n" +
		"The Annual General Meeting of the committee approved the website kickoff budget.\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	q := "Who was at the website kickoff of the committee?"
	o := optionsFor(q)
	if got := pickFor(q, ps, o); len(got) != 0 {
		t.Errorf("no person known: picked %q", got)
	}
	o.People = [][]string{{"gordon", "pell"}, {"priya", "natarajan"}}
	got := pickFor(q, ps, o)
	if len(got) != 2 || !strings.HasPrefix(got[0], "Larchmont committee — website kickoff") || !strings.HasPrefix(got[1], "present: Maren (me), Gordon Pell") {
		t.Errorf("picked %q", got)
	}
}

// TestPickList: a question for several things (which backends …) is answered by list items,
// table rows or a sentence enumerating them, not by a sentence that only talks about them.
func TestPickList(t *testing.T) {
	text := "The fsnotify backends behave differently when recursive watching is enabled.\n\n" +
		"- inotify on Linux is a supported backend of fsnotify\n- kqueue on BSD and macOS is a supported backend of fsnotify\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	q := "Which backends does fsnotify support?"
	o := optionsFor(q)
	got := pickFor(q, ps, o)
	if len(got) != 2 || !strings.HasPrefix(got[0], "inotify") || !strings.HasPrefix(got[1], "kqueue") {
		t.Errorf("picked %q", got)
	}
}

// TestPickSteps: for "how do I", a step of a numbered procedure comes with the steps after it,
// which need not share the question's words; a bullet list's next items do not come along.
func TestPickSteps(t *testing.T) {
	q := "How do I restore the larchmont site from backup?"
	o := optionsFor(q)
	for text, want := range map[string]int{
		"## Restore\n\n1. rsync -az nas:/backup/larchmont/ /var/www/larchmont/\n2. gunzip < dump.sql.gz | mysql\n3. wp cache flush --path=/var/www/larchmont\n": 3,
		"## Restore\n\n- rsync -az nas:/backup/larchmont/ /var/www/larchmont/\n- the dump is on the NAS too\n":                                                  1,
	} {
		ps := []Passage{{Sentences: Split(text), Score: 1}}
		got := pickFor(q, ps, o)
		items := 0
		for _, g := range got {
			if !strings.HasSuffix(g, ":") {
				items++
			}
		}
		if items != want {
			t.Errorf("%q: picked %q, want %d items", text, got, want)
		}
	}
}

// TestPickShowsEveryValue: a date another, lower-ranked source gives in as many of the
// question's words is shown too: the sources disagree, and both are shown.
func TestPickShowsEveryValue(t *testing.T) {
	later := Passage{Sentences: Split("Open Day moved — Gordon says maybe Sat 15 June because of the plant sale clash.\n"), Score: 1}
	earlier := Passage{Sentences: Split("Open Day: Sat 8 June (date may move).\n"), Score: 0.4, Rank: 3}
	other := Passage{Sentences: Split("The plant sale is on Sat 15 June at the gate.\n"), Score: 0.4, Rank: 4}
	ps := []Passage{later, earlier, other}
	q := "When is the Open Day?"
	got := pickFor(q, ps, optionsFor(q))
	if len(got) != 2 || !strings.Contains(got[0], "15 June") || !strings.Contains(got[1], "8 June") {
		t.Errorf("picked %q", got)
	}
}

// TestRequiredStrict: a content word that names a document's subject must be said, while the
// share of words a passage may leave out stays a share of all of them.
func TestRequiredStrict(t *testing.T) {
	r := RequiredTerms("Which Node.js version does tinyexec need?").Strict(func(w string) bool { return w == "tinyexec" })
	if m := r.Missing("Supported node.js versions: 4.x needs node 14+ (readdirp)"); !slices.Contains(m, "tinyexec") {
		t.Errorf("another package's versions: missing %q", m)
	}
	if m := r.Missing("tinyexec runs a command; it needs Node.js 18 or newer"); len(m) != 0 {
		t.Errorf("version may be said in other words: missing %q", m)
	}
}

// TestPickSkipsMailHeaders: an e-mail's header names who wrote to whom; it answers no question
// about what they wrote, even "who".
func TestPickSkipsMailHeaders(t *testing.T) {
	text := "From: Niamh Corrigan <treasurer@choir.ie> To: Parish Office <office@parish.ie> Date: Mon, 16 Sep 2024 Subject: church hire for the concert\n\n" +
		"Jimmy McInerney has the keys of the church, ring him on 087 118 6027.\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	q := "Who has the keys of the church for the concert?"
	o := optionsFor(q)
	o.People = [][]string{{"jimmy", "mcinerney"}, {"niamh", "corrigan"}}
	got := pickFor(q, ps, o)
	if len(got) != 1 || !strings.HasPrefix(got[0], "Jimmy McInerney has the keys") {
		t.Errorf("picked %q", got)
	}
}

// TestPickVersionOfAsked: a version question is answered by a version of what it names: "Go
// 1.23", not CommonMark's "0.31.2" in a sentence about the same package.
func TestPickVersionOfAsked(t *testing.T) {
	for q, want := range map[string]string{
		"Which Go version does the goldmark package need?": "Go 1.23",
		"What is the minimum Go version for goldmark?":     "",
	} {
		text := "goldmark is compliant with CommonMark 0.31.2 and fast.\n"
		if want != "" {
			text += "\nThe goldmark package needs Go 1.23 or newer to build.\n"
		}
		ps := []Passage{{Sentences: Split(text), Score: 1}}
		got := pickFor(q, ps, optionsFor(q))
		if want == "" && len(got) > 0 || want != "" && (len(got) != 1 || !strings.Contains(got[0], want)) {
			t.Errorf("%q: picked %q", q, got)
		}
	}
}

// TestPickSkipsQuestions: a FAQ's question shares the asker's words and answers nothing; its
// answer does.
func TestPickSkipsQuestions(t *testing.T) {
	text := "Why do long usernames get printed as numbers in the user column?\n\n" +
		"The user column prints a username as its number when the name is wider than the column.\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	q := "Why are long usernames printed as numbers in the user column?"
	got := pickFor(q, ps, optionsFor(q))
	if len(got) != 1 || !strings.HasPrefix(got[0], "The user column prints") {
		t.Errorf("picked %q", got)
	}
}

// TestPickWholeProcedure: the step that matches best brings the steps before it too, and a
// short step ("Create the dictionary") is a step.
func TestPickWholeProcedure(t *testing.T) {
	text := "## How to\n\n1. Create the dictionary\n2. zstd --train samples/* -o dict\n3. zstd -D dict FILE compresses each small file with the dictionary\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	q := "How do I compress small files with a dictionary?"
	got := pickFor(q, ps, optionsFor(q))
	if len(got) != 3 || got[0] != "Create the dictionary" || !strings.HasPrefix(got[1], "zstd --train") {
		t.Errorf("picked %q", got)
	}
}

// TestPickWhoByFullName: a first name alone does not name a known person ("Abi pays the
// invoices" may be any Abi; "Hi Bernadette" is a greeting).
func TestPickWhoByFullName(t *testing.T) {
	ps := []Passage{{Sentences: Split("Abi pays the invoices of the roastery, send everything to her.\n"), Score: 1}}
	q := "Who pays the invoices of the roastery?"
	o := optionsFor(q)
	o.People = [][]string{{"abi", "fenwick"}}
	if got := pickFor(q, ps, o); len(got) != 0 {
		t.Errorf("picked %q", got)
	}
	ps = []Passage{{Sentences: Split("Abi Fenwick pays the invoices of the roastery, send everything to her.\n"), Score: 1}}
	if got := pickFor(q, ps, o); len(got) != 1 {
		t.Errorf("by full name: picked %q", got)
	}
}

// TestRequiredForMoney: a question for an amount does not require the words that only ask for
// one; what the amount is of stays required.
func TestRequiredForMoney(t *testing.T) {
	q := "How much does the rent cost me?"
	r := RequiredTerms(q).ForKind(KindOf(q))
	if !slices.Equal(r.Words, []string{"rent"}) {
		t.Errorf("words %q", r.Words)
	}
	q = "When does the shop charge the fee?"
	if r := RequiredTerms(q).ForKind(KindOf(q)); !slices.Contains(r.Words, "charge") {
		t.Errorf("not a question for an amount: %q", r.Words)
	}
}

// TestRequiredTerms: identifiers and names as written, content words as words or their
// inflections, never a stem's neighbour (issue 24: capital is not capitalization).
func TestRequiredTerms(t *testing.T) {
	r := RequiredTerms("When was grep 3.9 released?")
	if strings.Join(r.Idents, ",") != "3.9" || strings.Join(r.Words, ",") != "grep,released" {
		t.Fatalf("%+v", r)
	}
	if m := r.Missing("Noteworthy changes in release 3.8 of grep"); strings.Join(m, ",") != "3.9" {
		t.Errorf("missing %q", m)
	}
	r = RequiredTerms("What is the capital of Turkey?")
	if strings.Join(r.Names, ",") != "turkey" {
		t.Fatalf("%+v", r)
	}
	if m := r.Missing("Capitalization of Turkish letters in the locale"); !slices.Contains(m, "capital") || !slices.Contains(m, "turkey") {
		t.Errorf("capitalization holds capital, Turkish Turkey: missing %q", m)
	}
	r = RequiredTerms("How much is the yearly rent for a half plot?")
	if m := r.Missing("Half plots: £38 per year, paid as rent in April."); len(m) != 0 {
		t.Errorf("plots, year: missing %q", m)
	}
	// a month is the same month written short
	r = RequiredTerms("Who was at the committee meeting in September?")
	if m := r.Missing("committee meeting Tues 10 Sept 2024, 8pm"); len(m) != 0 {
		t.Errorf("Sept is September: missing %q", m)
	}
	// "…, and when?" is a second question that requires nothing: the first still must be said.
	r = RequiredTerms("Did I already pay Brackwater, and when?")
	if len(r.Parts) != 2 || len(r.Missing("The plant sale is on 8 June.")) == 0 || len(r.Missing("I paid Brackwater on 4 April.")) != 0 {
		t.Errorf("%+v: missing %q", r, r.Missing("The plant sale is on 8 June."))
	}
	if k := KindOf("Did I already pay Brackwater, and when?"); k != KindDate {
		t.Errorf("kind %v", k)
	}
}

// optionsFor is DefaultOptions for a question: its kind, required terms and defined term.
func optionsFor(q string) Options {
	o := DefaultOptions
	o.Kind, o.Required, o.Define = KindOf(q), RequiredTerms(q), DefinedTerm(q)
	return o
}

// pickFor is what Pick chooses of the passages for a question, as text.
func pickFor(q string, ps []Passage, o Options) []string {
	return pickedTexts(ps, Pick(ps, NewQuery(q, nil), o))
}

// TestPickSectionTitle: "which release added X" of a changelog is answered by the line naming
// X and the title of its section, which holds the version; the title may be in the passage
// above (Passage.Above), whose other sentences are no answers; a subsection's title that holds
// no version is passed over, and no title holding one means no answer.
func TestPickSectionTitle(t *testing.T) {
	q := "Which gzip release added the --rsyncable option?"
	above := "* Noteworthy changes in release 1.7 (2016-03-27) [stable]\n\n** Changes in behavior\n\n  The rsyncable option is now documented in the 1.6 manual too.\n"
	here := "** New features\n\n  gzip now accepts the --rsyncable option.\n"
	ps := []Passage{{Sentences: Split(above), Score: 1, TitlesOnly: true}, {Sentences: Split(here), Score: 1, Above: 1}}
	got := pickFor(q, ps, optionsFor(q))
	want := []string{"Noteworthy changes in release 1.7 (2016-03-27) [stable]", "gzip now accepts the --rsyncable option."}
	if !slices.Equal(got, want) {
		t.Errorf("picked %q, want %q", got, want)
	}
	// Two passages up: a long release section takes more than one chunk.
	middle := "** Bug fixes\n\n  gzip no longer crashes on empty input.\n"
	ps = []Passage{{Sentences: Split(above), Score: 1, TitlesOnly: true}, {Sentences: Split(middle), Score: 1, TitlesOnly: true, Above: 1},
		{Sentences: Split(here), Score: 1, Above: 2}}
	if got := pickFor(q, ps, optionsFor(q)); !slices.Equal(got, want) {
		t.Errorf("two passages up: picked %q, want %q", got, want)
	}
	// Without the passage above, no title holds a version: no answer.
	ps = []Passage{{Sentences: Split(here), Score: 1}}
	if got := pickFor(q, ps, optionsFor(q)); len(got) != 0 {
		t.Errorf("without its section's title: picked %q", got)
	}
}

// TestPickWhatIsNoVersionOrTitle: on real files as the readers write them (links as their
// text), a changelog item's issue number ("(#149)") is no version, so "which release added" it
// is answered with its release's heading (google/uuid's CHANGELOG.md); and a short paragraph
// holding a version heads nothing, so the table rows under it that share a word with the
// question ("Needs support") are no answer (fsnotify's README).
func TestPickWhatIsNoVersionOrTitle(t *testing.T) {
	for _, c := range []struct {
		q, text string
		want    []string
	}{
		{"Which uuid release added the Max UUID constant?",
			"## 1.6.0 (2024-01-16)\n\n### Features\n\n* add Max UUID constant (#149) (c58770e)\n",
			[]string{"1.6.0 (2024-01-16)", "add Max UUID constant (#149) (c58770e)"}},
		{"Which Go version does fsnotify need?",
			"Go 1.23 or newer is required; the full documentation is at https://pkg.go.dev/github.com/fsnotify/fsnotify\n\n" +
				"| Backend | OS | Status |\n|---|---|---|\n| FSEvents | macOS | Needs support in x/sys/unix |\n",
			[]string{"Go 1.23 or newer is required; the full documentation is at https://pkg.go.dev/github.com/fsnotify/fsnotify"}},
	} {
		ps := []Passage{{Sentences: Split(c.text), Score: 1}}
		if got := pickFor(c.q, ps, optionsFor(c.q)); !slices.Equal(got, c.want) {
			t.Errorf("%q: picked %q, want %q", c.q, got, c.want)
		}
	}
}

// TestPickRowReadWithItsHeader: a table row is read with the header naming its cells: "which
// backend … on Windows" is the row whose OS cell says Windows under the "Backend" column; the
// other rows, alike under the same header, say nothing of Windows.
func TestPickRowReadWithItsHeader(t *testing.T) {
	q := "Which backend does fsnotify use on Windows?"
	text := "| Backend | OS | Status |\n|---|---|---|\n| inotify | Linux | Supported |\n| kqueue | BSD, macOS | Supported |\n" +
		"| ReadDirectoryChangesW | Windows | Supported |\n"
	ps := []Passage{{Sentences: Split(text), Score: 1}}
	o := optionsFor(q)
	o.MinShare = 0.3 // the row's own words hold a quarter of the question, with its header half
	got := pickFor(q, ps, o)
	if len(got) != 1 || !strings.Contains(got[0], "ReadDirectoryChangesW | Windows") {
		t.Errorf("picked %q", got)
	}
}
