package answer

import (
	"strings"
	"testing"
)

var checkPassages = map[int]string{
	1: "The fs.readFile() method asynchronously reads the entire contents of a file into memory.",
	2: "Invoice INV-001 from Acme Corp: total due 1,540.00 EUR by 2025-03-31.",
	3: "Streams let you process data piece by piece instead of loading it into memory at once.",
}

func TestCheckKeepsSupportedSentences(t *testing.T) {
	for _, s := range []string{
		"The fs.readFile() method reads the entire contents of a file into memory asynchronously [1].",
		"Acme Corp's invoice INV-001 totals 1540 EUR [2].",              // 1,540.00 written another way
		"Invoice INV-001 is due by 2025-03-31 [2].",                     // a date's numbers
		"Streams process data piece by piece [3], unlike readFile [1].", // two passages together
		"You can use streams to process data piece by piece [3].",       // linking words are not key terms
	} {
		if v := Check(s, checkPassages); !v.OK {
			t.Errorf("%q refused: %s", s, v.Reason)
		}
	}
}

func TestCheckRefusesUnsupportedSentences(t *testing.T) {
	for _, c := range []struct{ sentence, reason string }{
		{"The fs.readFile() method reads a file into memory.", "no citation"},
		{"Acme Corp invoiced 1,450 EUR [2].", "[2] does not say 1,450"},
		{"Acme Corp invoiced 1,540.50 EUR [2].", "[2] does not say 1,540.50"},
		{"Acme Corp invoiced 1,540 EUR on 2025-04-02 [2].", "[2] does not say 2025-04-02"},
		{"Streams are described in passage [9].", "cites no passage [9]"},
		{"Streams guarantee ordering [3][7].", "cites no passage [7]"},
		{"Worker threads run JavaScript in parallel on separate cores [1].", "[1] does not say “worker”, “threads”, “run”, “javascript”, “parallel”, “separate”, “cores”"},
		{"Streams encrypt the data with TLS before sending [1][3].", "[1], [3] do not say “encrypt”, “tls”, “sending”"},
	} {
		v := Check(c.sentence, checkPassages)
		if v.OK {
			t.Errorf("%q passed", c.sentence)
			continue
		}
		if v.Reason != c.reason {
			t.Errorf("%q: reason %q, want %q", c.sentence, v.Reason, c.reason)
		}
	}
}

// TestCheckKeyTermShare: three in four key terms must be in the cited passages; one new word
// in four passes, two in four do not.
func TestCheckKeyTermShare(t *testing.T) {
	p := map[int]string{1: "Alpha bravo charlie delta echo foxtrot golf hotel."}
	if v := Check("Alpha bravo charlie zulu [1].", p); !v.OK {
		t.Errorf("3 of 4: %s", v.Reason)
	}
	if v := Check("Alpha bravo yankee zulu [1].", p); v.OK {
		t.Error("2 of 4 passed")
	}
	if v := Check("Alpha zulu [1].", p); v.OK {
		t.Error("1 of 2 passed: a short sentence needs all its key terms")
	}
}

func TestKeyTerms(t *testing.T) {
	var words []string
	for _, k := range KeyTerms("You can use the readFile method to read 3 files quickly, reading them all.") {
		words = append(words, k.Word)
	}
	if got := strings.Join(words, " "); got != "readfile method read files quickly" {
		t.Fatalf("key terms: %s", got)
	}
}

// TestPastForm: a verb's past says what happened, not what a value is of.
func TestPastForm(t *testing.T) {
	for w, want := range map[string]bool{"brought": true, "released": true, "included": true, "left": true, "quarter": false, "speed": false, "bed": false} {
		if PastForm(w) != want {
			t.Errorf("PastForm(%q) = %v", w, !want)
		}
	}
}
