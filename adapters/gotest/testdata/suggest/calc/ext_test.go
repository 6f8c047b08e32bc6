package calc_test

import (
	"testing"

	"example.com/suggest/calc"
	"example.com/suggest/calc/internal/digits"
)

func TestExternal(t *testing.T) {
	var total int
	total = calc.Sum("2+2") + digits.Value('1')
	if total != 4 {
		t.Errorf("total = %d", total) // want: calc.Sum digits.Value calc.Atoi
	}
}
