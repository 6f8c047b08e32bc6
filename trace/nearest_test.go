package trace

import (
	"slices"
	"strings"
	"testing"
)

func TestNearest(t *testing.T) {
	names := []string{
		"example.com/m/shop.Discount", "example.com/m/shop.Parse", "example.com/m/shop.Subtotal",
		"strconv.ParseInt", "strconv.Atoi", "fmt.Sprintf", "example.com/m/shop.(*Cart).Add",
		"calc::parse", "calc::parse_expr",
	}
	project := func(n string) bool { return strings.HasPrefix(n, "example.com/") }
	for _, tc := range []struct {
		pattern string
		want    []string
	}{
		{"shop.Discont", []string{"example.com/m/shop.Discount"}},
		{"shop.Pars", []string{"example.com/m/shop.Parse", "calc::parse", "calc::parse_expr", "strconv.ParseInt"}},
		{"*.Add", []string{"example.com/m/shop.(*Cart).Add"}},
		{"zzzzzz", nil},
		{"@project", nil},
	} {
		p, err := Compile(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if got := Nearest(p, names, project, 5); !slices.Equal(got, tc.want) {
			t.Errorf("Nearest(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"parse", "parse", 0}} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
