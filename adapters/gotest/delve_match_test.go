package gotest

import (
	"testing"

	"strobe/trace"
)

// TestTraceByPackageName: go-humanize's package is humanize, and a
// pattern written as Go code calls its functions (humanize.Ordinal)
// matched nothing: Delve names them by import path
// (github.com/dustin/go-humanize.Ordinal).
func TestTraceByPackageName(t *testing.T) {
	for _, tc := range []struct {
		pattern, fn string
		want        bool
	}{
		{"humanize.Ordinal", "github.com/dustin/go-humanize.Ordinal", true},
		{"go-humanize.Ordinal", "github.com/dustin/go-humanize.Ordinal", true},
		{"humanize.(*T).Add", "github.com/dustin/go-humanize.(*T).Add", true},
		{"template.(*Template).Match", "example.com/template/v3.(*Template).Match", true},
		{"v3.(*Template).Match", "example.com/template/v3.(*Template).Match", true},
		{"humanize.Ordinal", "github.com/dustin/go-humanize/english.Ordinal", false},
		{"manize.Ordinal", "github.com/dustin/go-humanize.Ordinal", false},
		{"shop.Total", "example.com/shop.Total", true},
	} {
		p, err := trace.Compile(tc.pattern)
		if err != nil {
			t.Fatal(err)
		}
		m, err := trace.NewMatcher(p, "/src")
		if err != nil {
			t.Fatal(err)
		}
		if got := goMatch(m, tc.fn, ""); got != tc.want {
			t.Errorf("%s on %s: %v, want %v", tc.pattern, tc.fn, got, tc.want)
		}
	}
}
