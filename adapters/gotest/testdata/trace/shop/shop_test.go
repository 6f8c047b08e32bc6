package shop

import "testing"

func TestTotal(t *testing.T) {
	got := Total([]string{"apple:3:120", "pear:2:75", "kiwi:x:30"}, 10)
	if got != 459 {
		t.Errorf("Total = %d, want 459", got)
	}
}

func TestParse(t *testing.T) {
	it, err := Parse("apple:3:120")
	if err != nil || it.Qty != 3 || it.Cents != 120 {
		t.Fatalf("Parse = %+v, %v", it, err)
	}
}

// TestLoop calls Step 1,000 times: the events/s fixture.
func TestLoop(t *testing.T) {
	sum := 0
	for i := range 1000 {
		sum += Step(i)
	}
	if sum != 1000*1000 {
		t.Fatalf("sum = %d", sum)
	}
}

// TestHeader splits a header line, then a gzip stream's first bytes: text
// and bytes that are not.
func TestHeader(t *testing.T) {
	name, value := Header([]byte("Content-Type: text/plain; charset=utf-8"))
	if string(name) != "Content-Type" || string(value) != "text/plain; charset=utf-8" {
		t.Fatalf("Header = %q, %q", name, value)
	}
	if name, _ := Header([]byte{0x1f, 0x8b, 0x08, 0x00}); name != nil {
		t.Fatalf("Header of no header = %q", name)
	}
}
