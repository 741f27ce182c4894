// Command notes writes a folder of n real-looking notes (internal/benchdata.Note: Markdown and
// text, 1–4 KB of real prose, tags, dates, versions and byte-identical copies) for the browser
// tests that need a library of thousands of documents. The same n gives the same files.
//
//	notes DIR N
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/strata-app/strata/internal/benchdata"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: notes DIR N")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 0 {
		fmt.Fprintln(os.Stderr, "notes: N must be a count")
		os.Exit(2)
	}
	if err := write(os.Args[1], n); err != nil {
		fmt.Fprintln(os.Stderr, "notes:", err)
		os.Exit(1)
	}
}

func write(dir string, n int) error {
	for i := range n {
		rel, body, err := benchdata.Note(i)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, body, 0o644); err != nil {
			return err
		}
	}
	return nil
}
