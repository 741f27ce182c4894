package search

import (
	"math"
	"math/rand"
	"sort"
	"sync"
)

// The coarse quantizer in front of chromem-go: spherical k-means (cosine, unit centroids) on a
// sample of the space's vectors. Each centroid names one partition, a chromem-go collection of
// the vectors nearest to it; a query scores the centroids and searches only the nearest few
// collections. Training and assignment are deterministic for the same vectors in the same
// (rowid) order: the sample and the initial centroids come from a fixed seed, and ties go to the
// lower centroid index.

// kmeansSeed seeds sampling and initialisation; fixed so that the same data gives the same
// partitions in every process.
const kmeansSeed = 20261124

// dot is the inner product of two vectors of equal length (cosine for unit vectors), with four
// accumulators so the loop is not one long dependency chain.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// nearestCentroid is the index of the centroid with the highest cosine to v (lowest index on
// ties).
func nearestCentroid(cents [][]float32, v []float32) int {
	best, bestS := 0, float32(math.Inf(-1))
	for i, c := range cents {
		if s := dot(c, v); s > bestS {
			best, bestS = i, s
		}
	}
	return best
}

// assignAll maps every vector to its nearest centroid, on two goroutines (the work is ~N×K×D
// multiply-adds: 8·10⁹ at 100k vectors and 316 partitions), both awaited before it returns.
func assignAll(cents [][]float32, vecs [][]float32) []int32 {
	out := make([]int32, len(vecs))
	const workers = 2
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(vecs); i += workers {
				out[i] = int32(nearestCentroid(cents, vecs[i]))
			}
		}()
	}
	wg.Wait()
	return out
}

// normalize scales v to unit length in place; a zero vector stays zero.
func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// trainCentroids returns k unit centroids by spherical k-means over at most sampleMax of vecs
// (which the caller gives in rowid order), iterating iters times. A centroid left without
// members is moved onto the sample vector farthest from its own centroid, so that no partition
// stays empty while the data has more distinct directions.
func trainCentroids(vecs [][]float32, k, sampleMax, iters int) [][]float32 {
	r := rand.New(rand.NewSource(kmeansSeed))
	sample := vecs
	if len(vecs) > sampleMax {
		idx := r.Perm(len(vecs))[:sampleMax]
		sample = make([][]float32, sampleMax)
		for i, j := range idx {
			sample[i] = vecs[j]
		}
	}
	k = min(k, len(sample))
	dims := len(sample[0])
	cents := make([][]float32, k)
	for i, j := range r.Perm(len(sample))[:k] {
		cents[i] = append([]float32(nil), sample[j]...)
	}
	var assign []int32
	for range iters {
		assign = assignAll(cents, sample)
		sums := make([][]float32, k)
		for i := range sums {
			sums[i] = make([]float32, dims)
		}
		counts := make([]int, k)
		for i, v := range sample {
			c := assign[i]
			counts[c]++
			s := sums[c]
			for d, x := range v {
				s[d] += x
			}
		}
		for c := range cents {
			if counts[c] > 0 {
				normalize(sums[c])
				cents[c] = sums[c]
			}
		}
		// Re-seed empty centroids on the worst-placed sample vectors, in a fixed order.
		for c := range cents {
			if counts[c] > 0 {
				continue
			}
			worst, worstS := -1, float32(math.Inf(1))
			for i, v := range sample {
				if s := dot(cents[assign[i]], v); s < worstS && counts[assign[i]] > 1 {
					worst, worstS = i, s
				}
			}
			if worst < 0 {
				break
			}
			counts[assign[worst]]--
			assign[worst] = int32(c)
			counts[c] = 1
			cents[c] = append([]float32(nil), sample[worst]...)
		}
	}
	return cents
}

// topCentroids orders the centroids by cosine to q, best first, ties by index.
func topCentroids(cents [][]float32, q []float32) []int {
	score := make([]float32, len(cents))
	order := make([]int, len(cents))
	for i, c := range cents {
		score[i], order[i] = dot(c, q), i
	}
	sort.Slice(order, func(a, b int) bool {
		if score[order[a]] != score[order[b]] {
			return score[order[a]] > score[order[b]]
		}
		return order[a] < order[b]
	})
	return order
}
