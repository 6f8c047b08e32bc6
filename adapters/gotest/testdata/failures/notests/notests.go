// Package notests has no test files: under -cover, go test prints only
// "\tPKG\t\tcoverage: 0.0% of statements" for it, which is no TestMain's.
package notests

// Double doubles.
func Double(x int) int { return 2 * x }
