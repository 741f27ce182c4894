// Package hello greets.
package hello

import "fmt"

// Greet returns a greeting for name.
func Greet(name string) string { return fmt.Sprintf("Hello, %s!", name) }
