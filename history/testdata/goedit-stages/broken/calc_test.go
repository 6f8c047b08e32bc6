package calc

import "testing"

func TestB(t *testing.T) {
	var n int = "not an int"
}
