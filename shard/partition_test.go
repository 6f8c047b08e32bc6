package shard

import (
	"fmt"
	"strings"
	"testing"

	"strobe/adapters"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want Partition
		err  string // part of the error; empty for none
	}{
		{"hash:1/3", Partition{Hash, 1, 3}, ""},
		{"slice:3/3", Partition{Slice, 3, 3}, ""},
		{" 2/4 ", Partition{Hash, 2, 4}, ""},
		{"hash:1/1", Partition{Hash, 1, 1}, ""},
		{"3/2", Partition{}, "asks for part 3 of only 2"},
		{"0/4", Partition{}, "counts parts from 1"},
		{"hash:a/b", Partition{}, "not two whole numbers"},
		{"hash:1/0", Partition{}, "N=0 parts"},
		{"range:1/2", Partition{}, `unknown kind "range"`},
		{"hash:2", Partition{}, "no M/N"},
		{"", Partition{}, "no M/N"},
		{"slice:-1/3", Partition{}, "counts parts from 1"},
	} {
		got, err := Parse(tc.spec)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("Parse(%q) = %v, %v; want %v", tc.spec, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Parse(%q) error %v; want one containing %q", tc.spec, err, tc.err)
			continue
		}
		if !adapters.IsUsage(err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): %v is not a one-line usage error", tc.spec, err)
		}
	}
}

func TestSelectCoversEveryTestOnce(t *testing.T) {
	var tests []adapters.TestRef
	for i := range 1000 {
		tests = append(tests, adapters.TestRef{Suite: fmt.Sprintf("pkg%d", i%7), Name: fmt.Sprintf("Test%d", i)})
	}
	for _, kind := range []string{Hash, Slice} {
		for _, n := range []int{1, 2, 3, 7, 1500} {
			seen := map[adapters.TestRef]int{}
			sizes := make([]int, n)
			for m := 1; m <= n; m++ {
				part := Partition{kind, m, n}.Select(tests)
				sizes[m-1] = len(part)
				for _, tr := range part {
					seen[tr]++
				}
			}
			for _, tr := range tests {
				if seen[tr] != 1 {
					t.Fatalf("%s/%d: %v is in %d parts, want 1", kind, n, tr, seen[tr])
				}
			}
			if kind == Slice {
				for _, s := range sizes {
					if s < len(tests)/n || s > len(tests)/n+1 {
						t.Errorf("slice into %d: a part of %d tests, want %d or %d", n, s, len(tests)/n, len(tests)/n+1)
					}
				}
			}
		}
	}
}

// A test stays in its hash part when others come and go.
func TestHashIsStable(t *testing.T) {
	a := []adapters.TestRef{{Name: "TestA"}, {Name: "TestB"}, {Name: "TestC"}}
	b := append([]adapters.TestRef{{Name: "TestNew"}}, a[1:]...)
	for m := 1; m <= 3; m++ {
		p := Partition{Hash, m, 3}
		for _, tr := range p.Select(a) {
			if tr.Name != "TestA" && !containsRef(p.Select(b), tr) {
				t.Errorf("%s moved out of part %d when the suite changed", tr.Name, m)
			}
		}
	}
	// Pinned, so a change of hash (which would reshuffle every CI
	// matrix's parts) is seen.
	if got := Part("TestA", 3); got != Part("TestA", 3) || fmt.Sprint(Part("TestN001", 3), Part("TestN002", 3), Part("TestN003", 3)) != pinnedParts {
		t.Errorf("parts of TestN001..3 = %d %d %d, want %s", Part("TestN001", 3), Part("TestN002", 3), Part("TestN003", 3), pinnedParts)
	}
}

func containsRef(refs []adapters.TestRef, r adapters.TestRef) bool {
	for _, x := range refs {
		if x == r {
			return true
		}
	}
	return false
}

const pinnedParts = "3 3 1" // FNV-1a as computed independently (Python) when written
