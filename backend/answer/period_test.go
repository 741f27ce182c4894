package answer

import "testing"

func TestParsePeriod(t *testing.T) {
	for _, c := range []struct {
		q    string
		want Period
	}{
		{"What did Acme invoice in March?", Period{Month: 3}},
		{"What is the amount of invoice INV-2025-031?", Period{}},
		{"Was BPS-2024-0117 paid in April 2024?", Period{Year: 2024, Month: 4}},
		{"what did acme invoice in march 2025", Period{Year: 2025, Month: 3}},
		{"invoices of Mar 2024", Period{Year: 2024, Month: 3}},
		{"what happened on 4 March 2025?", Period{Year: 2025, Month: 3, Day: 4}},
		{"what happened on March 4th, 2025?", Period{Year: 2025, Month: 3, Day: 4}},
		{"payments on 2025-03-04", Period{Year: 2025, Month: 3, Day: 4}},
		{"payments in 2025-03", Period{Year: 2025, Month: 3}},
		{"what did we sign in 2024?", Period{Year: 2024}},
		{"May I see the invoices?", Period{}},
		{"invoices in May", Period{Month: 5}},
		{"what changed in node 18", Period{}},
	} {
		if got := ParsePeriod(c.q); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.q, got, c.want)
		}
	}
}

func TestPeriodContains(t *testing.T) {
	march := Period{Month: 3}
	if !march.Contains("2025-03-04") || !march.Contains("1999-03-31T10:00:00Z") || march.Contains("2025-04-01") || march.Contains("March 4") {
		t.Error("a month of any year")
	}
	if (Period{Year: 2025, Month: 3}).Contains("2024-03-04") {
		t.Error("a month of a year")
	}
	if !(Period{Year: 2025}).Contains("2025-12-31") {
		t.Error("a year")
	}
}
