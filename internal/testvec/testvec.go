// Package testvec makes vectors for tests of the vector indexes (search's and linking's), in
// one place so that both draw them the same way.
package testvec

import (
	"math"
	"math/rand"
)

// Unit is a random vector of d dimensions and length 1, drawn from r (a seeded source: the
// same seed, the same vectors).
func Unit(r *rand.Rand, d int) []float32 {
	v := make([]float32, d)
	var n float64
	for i := range v {
		v[i] = float32(r.NormFloat64())
		n += float64(v[i] * v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}
