// Package calc is the code under test of the history fixture: its test file
// is swapped between runs (testdata/goedit-stages).
package calc

// Add adds.
func Add(a, b int) int { return a + b }
