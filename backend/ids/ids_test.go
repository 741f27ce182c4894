package ids

import "testing"

func TestCanonical(t *testing.T) {
	cases := [][2]string{
		{`{"b": 1, "a": " x "}`, `{"a":"x","b":1}`},
		{`{"n": 1500.00}`, `{"n":1500}`},
		{`{"n": 1.5e3}`, `{"n":1500}`},
		{`{"n": 0.10}`, `{"n":0.1}`},
		{`{"n": 12345678901234567890}`, `{"n":12345678901234567890}`},
		{`{"s": "<a&b>"}`, `{"s":"<a&b>"}`},
		{`[3, {"z": null, "y": [1.0]}]`, `[3,{"y":[1],"z":null}]`},
	}
	for _, c := range cases {
		got, err := Canonical([]byte(c[0]))
		if err != nil || string(got) != c[1] {
			t.Errorf("Canonical(%s) = %s, %v; want %s", c[0], got, err, c[1])
		}
	}
	if _, err := Canonical([]byte(`{"a":1} {"b":2}`)); err == nil {
		t.Error("trailing data accepted")
	}
}

func TestIDs(t *testing.T) {
	if Entity("company", "acme") != Entity("company", "acme") || Entity("company", "acme") == Entity("person", "acme") {
		t.Fatal("entity IDs not a function of type and key")
	}
	if !ValidEntityID(Entity("a", "b")) || ValidEntityID("ent_xyz") {
		t.Fatal("ValidEntityID")
	}
	if NormalizeKey("  ACME   Corp. ") != NormalizeKey("acme corp") {
		t.Fatal("NormalizeKey")
	}
	if Payload("payload_x") != Payload("payload_x") || Payload("payload_x") == Payload("payload_y") {
		t.Fatal("payload UUIDs")
	}
	a, _ := Submission()
	b, _ := Submission()
	if a == b || a[:4] != "sub_" || a > b {
		t.Fatalf("submission IDs not fresh and time-ordered: %s %s", a, b)
	}
}
