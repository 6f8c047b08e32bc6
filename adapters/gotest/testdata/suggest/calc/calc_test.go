package calc

import "testing"

func TestAssigned(t *testing.T) {
	got := Sum("1+2")
	if got != 4 {
		t.Errorf("Sum = %d", got) // want: calc.Sum calc.Atoi digits.Value
	}
}

func TestInline(t *testing.T) {
	if n := Atoi("12"); n != 13 {
		t.Fatalf("Atoi = %d", n) // want: calc.Atoi digits.Value
	}
}

func TestOnTheLine(t *testing.T) {
	t.Errorf("Max = %d", Max(1, 2)) // want: calc.Max
}

func TestMethod(t *testing.T) {
	var c Calc
	if c.Double(2) != 5 {
		t.Error("Double") // want: calc.Calc.Double
	}
}

func TestNothingOfTheProject(t *testing.T) {
	if len("ab") != 3 {
		t.Error("len") // want:
	}
}

func TestWide(t *testing.T) {
	if Wide() != 0 {
		t.Error("Wide") // want: calc.Wide calc.w1 calc.w2 calc.w3 calc.w4 calc.w5 calc.w6 calc.*
	}
}
