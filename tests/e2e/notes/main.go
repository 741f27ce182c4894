// Command notes writes the synthetic but real-looking notes of internal/benchdata (Note(i):
// Markdown and text of real prose, with byte-identical copies and new versions among them) into
// a folder, for the browser test that adds a folder of thousands of files and watches the
// progress.
//
//	notes DIR N
package main

import (
	"fmt"
	"os"
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
	if err := benchdata.WriteNotes(os.Args[1], 0, n); err != nil {
		fmt.Fprintln(os.Stderr, "notes:", err)
		os.Exit(1)
	}
}
