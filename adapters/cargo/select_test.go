package cargo

import (
	"context"
	"slices"
	"testing"

	"strobe/adapters"
	"strobe/internal/testutil"
)

// TestCargoList lists the harness fixture's tests for a partition: the
// libtest binaries' tests, and none of the binaries with their own main,
// which --list would run (quiet_args fails on any argument).
func TestCargoList(t *testing.T) {
	testutil.RequireTool(t, "cargo")
	refs, err := cargo{}.List(context.Background(), adapters.Request{ProjectRoot: testutil.Fixture("cargo", "harness"), Level: adapters.LevelAll})
	if err != nil {
		t.Fatal(err)
	}
	want := adapters.TestRef{Suite: "harness::it (test)", Name: "divides_through_the_api"}
	if !slices.Contains(refs, want) {
		t.Errorf("list %+v lacks %+v", refs, want)
	}
	for _, r := range refs {
		if r.Suite == "harness::custom (test)" || r.Suite == "harness::quiet-args (test)" || r.Suite == "harness::mimic (test)" {
			t.Errorf("listed %+v, a binary with its own main", r)
		}
	}
}
