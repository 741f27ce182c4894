// Package ids derives Strata's identifiers and canonical JSON.
//
// Determinism (DESIGN.md invariant 6) rests here: every stored thing except a submission gets an
// ID computed from its content, so the same input always yields the same IDs on any machine.
package ids

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// payloadNamespace makes payload UUIDs (v5) from content IDs; it must never change.
var payloadNamespace = uuid.MustParse("6f1d6c0e-53a4-4a47-9d49-8a1f3c7b2e10")

func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Hash is the hex SHA-256 of the parts, each terminated by a NUL so that ("ab","c") ≠ ("a","bc").
func Hash(parts ...string) string { return hash(parts...) }

// Entity is the ID of the entity of type typ whose normalised identity key is key.
func Entity(typ, key string) string { return "ent_" + hash("entity", typ, key)[:24] }

// Observation is the ID of one observation; parts name what makes it unique (entity, payload,
// rule that produced it).
func Observation(parts ...string) string {
	return "obs_" + hash(append([]string{"observation"}, parts...)...)[:24]
}

// Relationship is the ID of a typed edge; creating the same edge twice yields the same ID.
func Relationship(typ, source, target string) string {
	return "rel_" + hash("relationship", typ, source, target)[:24]
}

// Document is the ID of a document derived from a stable key (content ID or file path).
func Document(key string) string { return "doc_" + hash("document", key)[:24] }

// Chunk is the ID of a chunk of a document.
func Chunk(documentID string, ordinal int, textHash string) string {
	return "chk_" + hash("chunk", documentID, strconv.Itoa(ordinal), textHash)[:24]
}

// PayloadContent is the content ID of a payload: a hash of its kind and canonical content.
func PayloadContent(kind string, canonical []byte) string {
	return "payload_" + hash("payload", kind, string(canonical))[:32]
}

// Payload is the payload's UUID, derived from its content ID so that resubmission finds it.
func Payload(contentID string) string {
	return uuid.NewSHA1(payloadNamespace, []byte(contentID)).String()
}

// Submission is a fresh time-ordered UUIDv7 for one submission (with Import, the only
// non-derived IDs).
func Submission() (string, error) { return fresh("sub_", "submission") }

// Import is a fresh time-ordered UUIDv7 for one import (a call that adds files), which its
// summary is followed by.
func Import() (string, error) { return fresh("imp_", "import") }

func fresh(prefix, what string) (string, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("new %s id: %w", what, err)
	}
	return prefix + u.String(), nil
}

// ValidEntityID reports whether s has the shape of an entity ID.
func ValidEntityID(s string) bool { return validPrefixed(s, "ent_", 24) }

// ValidObservationID reports whether s has the shape of an observation ID.
func ValidObservationID(s string) bool { return validPrefixed(s, "obs_", 24) }

func validPrefixed(s, prefix string, n int) bool {
	if len(s) != len(prefix)+n || !strings.HasPrefix(s, prefix) {
		return false
	}
	for _, c := range s[len(prefix):] {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// NormalizeKey folds an identity value so that trivial spelling differences ("Acme Corp." and
// "  acme  corp") name the same entity.
func NormalizeKey(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRight(s, ".,;:")
}

// Canonical re-encodes JSON deterministically: object keys sorted, strings trimmed, numbers in
// one spelling (1500.00 → 1500), no HTML escaping. Equal meaning gives equal bytes.
func Canonical(raw []byte) ([]byte, error) {
	v, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	return Marshal(Normalize(v))
}

// Decode parses JSON keeping numbers exact (json.Number).
func Decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode json: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("decode json: trailing data after the first value")
	}
	return v, nil
}

// Normalize applies the canonical rules to a decoded value.
func Normalize(v any) any {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case json.Number:
		return NormalizeNumber(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = Normalize(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = Normalize(x)
		}
		return out
	default:
		return v
	}
}

// NormalizeNumber gives a number one spelling: integers stay exact, others go through float64.
func NormalizeNumber(n json.Number) json.Number {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if s == "-0" {
			return "0"
		}
		return n
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return n
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return json.Number(strconv.FormatInt(int64(f), 10))
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// Marshal encodes v with sorted keys and without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode json: %w", err)
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// MustMarshal is Marshal for values built by this program from JSON-able parts.
func MustMarshal(v any) []byte {
	b, err := Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// SortedSet returns the distinct values of list in canonical order (by canonical encoding),
// used for set-like fields (tags, union merges) so that order never affects identity.
func SortedSet(list []any) []any {
	seen := map[string]any{}
	for _, x := range list {
		seen[string(MustMarshal(x))] = x
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = seen[k]
	}
	return out
}
