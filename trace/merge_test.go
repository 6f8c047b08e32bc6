package trace

import (
	"slices"
	"testing"
)

// TestMergeNearestFromEveryProcess: cargo runs one test binary per target.
// semver's lib unit tests lack matches_tilde; the integration test binary
// has it. The typo's nearest names must come from both, best first.
func TestMergeNearestFromEveryProcess(t *testing.T) {
	var h Header
	mergeMetas(&h, []Meta{
		{Tracer: "gdb 13.1", Unmatched: []Unmatched{{Pattern: "semver::eval::matches_tlide",
			Nearest: []string{"semver::main", "std::backtrace_rs::symbolize::gimli::elf::locate_build_id"}}}},
		{Tracer: "gdb 13.1", Unmatched: []Unmatched{{Pattern: "semver::eval::matches_tlide",
			Nearest: []string{"semver::eval::matches_less", "semver::eval::matches_tilde"}}}},
	})
	if len(h.Unmatched) != 1 || len(h.Unmatched[0].Nearest) == 0 || h.Unmatched[0].Nearest[0] != "semver::eval::matches_tilde" {
		t.Fatalf("unmatched %+v, want semver::eval::matches_tilde first", h.Unmatched)
	}
	if slices.Contains(h.Unmatched[0].Nearest, "semver::main") {
		t.Errorf("nearest %v keeps a name nothing like the typo", h.Unmatched[0].Nearest)
	}
}
