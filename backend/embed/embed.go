// Package embed turns text into vectors for Strata's vector search.
//
// Two embedders live here: Static, a deterministic feature-hashing embedder that needs no
// downloads and is always available, and Ollama, which asks a local Ollama server for semantic
// embeddings. Which one is in use is decided elsewhere (the manager); this package only makes
// each of them correct and honest about what it produced, through Info.
//
// Vectors from different embedders, models or sizes live in different spaces and must never be
// compared with each other; Info.Key names the space a vector belongs to.
package embed

import (
	"context"
	"fmt"
	"math"
	"strconv"
)

// Purpose says what a text will be used for. Some models (nomic-embed-text) embed a document
// and a question about it differently, so callers must say which one they are embedding.
//
// The zero value is not a valid Purpose on purpose: a forgotten argument is reported as an
// error instead of silently embedding a query as a document.
type Purpose int

const (
	// Document is text that is stored and searched: a chunk of a file, a note.
	Document Purpose = iota + 1
	// Query is text a user searches with.
	Query
)

// String names the purpose for logs and errors.
func (p Purpose) String() string {
	switch p {
	case Document:
		return "document"
	case Query:
		return "query"
	}
	return "Purpose(" + strconv.Itoa(int(p)) + ")"
}

func (p Purpose) valid() error {
	if p != Document && p != Query {
		return fmt.Errorf("embed: invalid purpose %v (want Document or Query)", p)
	}
	return nil
}

// Info describes the vector space an embedder produces.
type Info struct {
	// Provider is "static" or "ollama".
	Provider string
	// Model is the model name within the provider (for Ollama without a ":latest" suffix,
	// which names the same model).
	Model string
	// Dimensions is the length of every vector in this space.
	Dimensions int
	// Key is "provider/model/dims": the name of the vector space. Vectors with different keys
	// are never mixed (DESIGN.md invariant 4). Treat it as opaque: Ollama model names may
	// themselves contain "/".
	Key string
}

// SpaceKey builds the Info.Key for a provider, model and vector size.
func SpaceKey(provider, model string, dims int) string {
	return provider + "/" + model + "/" + strconv.Itoa(dims)
}

// Embedder turns texts into vectors of one space. It is declared here for implementers;
// consumers declare the small interface they need.
type Embedder interface {
	// Embed returns one vector per text, in order, all of length Info().Dimensions.
	Embed(ctx context.Context, texts []string, p Purpose) ([][]float32, error)
	// Info describes the space the vectors belong to.
	Info() Info
}

// normalize scales v to unit length so cosine similarity is a plain dot product downstream.
// A zero vector stays zero: it has no direction, and inventing one would be a lie.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(float64(x) * float64(x)) // rounded: no FMA, same bits on every CPU
	}
	if sum == 0 {
		return
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
}
