// Package digits is a second project package the calc package calls.
package digits

// Value reads one digit.
func Value(r rune) int { return int(r - '0') }
