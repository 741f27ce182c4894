package embed

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"
)

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func norm2(v []float32) float64 { return math.Sqrt(dot(v, v)) }

func embedStatic(t *testing.T, s *Static, texts ...string) [][]float32 {
	t.Helper()
	vs, err := s.Embed(context.Background(), texts, Document)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(vs), len(texts))
	}
	return vs
}

func TestStaticInfo(t *testing.T) {
	info := NewStatic().Info()
	want := Info{Provider: "static", Model: "strata-hash-v1", Dimensions: 256, Key: "static/strata-hash-v1/256"}
	if info != want {
		t.Fatalf("Info() = %+v, want %+v", info, want)
	}
}

// Same text, same vector, bit for bit: across calls, across embedder values, across batches
// and across goroutines sharing the scratch pool. Golden buckets pin the hashing so a change
// that would silently move every stored vector fails here (and must bump StaticModel).
func TestStaticDeterministic(t *testing.T) {
	text := "Quarterly report: revenue grew 12% in Zürich and São Paulo; the café reopened."
	a := embedStatic(t, NewStatic(), text)[0]
	s := NewStatic()
	b := embedStatic(t, s, "something else entirely", text, "")[1]
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("dimension %d differs: %v vs %v", i, a[i], b[i])
		}
	}

	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for range 50 {
				v := s.EmbedOne(text)
				for i := range a {
					if v[i] != a[i] {
						t.Errorf("concurrent embedding differs at %d", i)
						return
					}
				}
			}
		})
	}
	wg.Wait()

	// Golden checksum over the bits of a few vectors, fixed for strata-hash-v1.
	sum := fnvOffset
	for _, v := range embedStatic(t, s, "invoice from Acme Corp due March", text, "x", strings.Repeat("long text ", 300)) {
		for _, x := range v {
			sum = (sum ^ uint64(math.Float32bits(x))) * fnvPrime
		}
	}
	if sum != goldenChecksum {
		t.Fatalf("checksum %#x, want %#x: the static space changed; bump StaticModel and this value", sum, uint64(goldenChecksum))
	}
}

func TestStaticNormalised(t *testing.T) {
	s := NewStatic()
	texts := []string{
		"a",
		"Hello, world!",
		"the the the the the",
		strings.Repeat("invoice ", 1000),
		"日本語のテキストも扱えます",
		strings.Repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 200),
	}
	for i, v := range embedStatic(t, s, texts...) {
		if len(v) != StaticDimensions {
			t.Fatalf("text %d: length %d", i, len(v))
		}
		if n := norm2(v); math.Abs(n-1) > 1e-5 {
			t.Errorf("text %d %.20q: norm %v", i, texts[i], n)
		}
	}
}

func TestStaticEmptyIsZero(t *testing.T) {
	for _, text := range []string{"", "   ", "!!! --- ...", "\n\t"} {
		v := embedStatic(t, NewStatic(), text)[0]
		if len(v) != StaticDimensions {
			t.Fatalf("%q: length %d", text, len(v))
		}
		for i, x := range v {
			if x != 0 {
				t.Fatalf("%q: dimension %d = %v, want the zero vector", text, i, x)
			}
		}
	}
	if vs, err := NewStatic().Embed(context.Background(), nil, Query); err != nil || len(vs) != 0 {
		t.Fatalf("no texts: %v, %v", vs, err)
	}
}

func TestStaticSimilarCloserThanUnrelated(t *testing.T) {
	s := NewStatic()
	vs := embedStatic(t, s,
		"invoice from Acme Corp due March",
		"Acme Corp invoice payable in March",
		"the cat sat on the mat",
	)
	similar, unrelated := dot(vs[0], vs[1]), dot(vs[0], vs[2])
	t.Logf("similar %.3f, unrelated %.3f", similar, unrelated)
	if similar < 0.4 || similar-unrelated < 0.3 {
		t.Fatalf("similar %.3f should clearly beat unrelated %.3f", similar, unrelated)
	}

	// Word forms and accents: trigrams and folding carry what exact words cannot.
	pairs := [][3]string{
		{"invoices overdue", "overdue invoice", "garden party"},
		{"Café résumé", "cafe resume", "train station"},
		{"INVOICE", "invoice", "receipt"},
	}
	for _, p := range pairs {
		v := embedStatic(t, s, p[0], p[1], p[2])
		if a, b := dot(v[0], v[1]), dot(v[0], v[2]); a <= b+0.2 {
			t.Errorf("%q~%q %.3f should beat %q %.3f", p[0], p[1], a, p[2], b)
		}
	}
	if v := embedStatic(t, s, "Café résumé", "cafe resume"); dot(v[0], v[1]) < 0.9999 {
		t.Errorf("accents should fold away: %.5f", dot(v[0], v[1]))
	}
}

func TestStaticPurposeIgnored(t *testing.T) {
	s := NewStatic()
	text := "where is the contract with Acme?"
	d, err := s.Embed(context.Background(), []string{text}, Document)
	if err != nil {
		t.Fatal(err)
	}
	q, err := s.Embed(context.Background(), []string{text}, Query)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d[0] {
		if d[0][i] != q[0][i] {
			t.Fatalf("purpose changed dimension %d", i)
		}
	}
	if _, err := s.Embed(context.Background(), []string{text}, Purpose(0)); err == nil {
		t.Fatal("the zero Purpose should be rejected")
	}
}

func TestStaticVectorsDoNotAlias(t *testing.T) {
	vs := embedStatic(t, NewStatic(), "alpha", "beta")
	before := vs[1][0]
	vs[0] = append(vs[0], 42)
	if vs[1][0] != before {
		t.Fatal("appending to one vector overwrote the next")
	}
}

func TestStaticCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewStatic().Embed(ctx, []string{"x"}, Document); err == nil {
		t.Fatal("want an error from a cancelled context")
	}
}

// benchText is ~1 KB of ordinary prose with some numbers, punctuation and a few accents, the
// size of a chunk.
var benchText = func() string {
	const para = "The quarterly report from Acme Corp shows revenue of 4.2 million euros, " +
		"up 12% on last year. The café in Zürich reopened in March; invoices for the " +
		"renovation are due by 30 April. Contact finance@acme.example for the résumé of " +
		"changes, and see section 3.1 for the risks we identified during the audit. "
	s := strings.Repeat(para, 4)
	return s[:1024]
}()

func BenchmarkStatic(b *testing.B) {
	s := NewStatic()
	texts := make([]string, 32)
	for i := range texts {
		texts[i] = benchText
	}
	ctx := context.Background()
	b.SetBytes(int64(len(benchText) * len(texts)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Embed(ctx, texts, Document); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStaticParallel is the same work from every core, as the analysis workers do.
func BenchmarkStaticParallel(b *testing.B) {
	s := NewStatic()
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.EmbedOne(benchText)
		}
	})
}

const goldenChecksum = 0x1255826e4fae19b9
