package answer

import "testing"

func TestSupportFindsTheSentenceThatSaysIt(t *testing.T) {
	cands := []string{
		"Invoices are sent monthly.",
		"Invoice INV-001 from Acme Corp totals 1,540.00 EUR.",
		"Invoice INV-002 from Acme Corp totals 980.00 EUR.",
	}
	if got := Support("Acme's invoice INV-001 totals 1540 EUR [2].", cands); got != 1 {
		t.Fatalf("support: %d", got)
	}
	if got := Support("Something else entirely.", cands); got != -1 {
		t.Fatalf("no support: %d", got)
	}
}
