// Package shard splits a suite across CI machines and puts the pieces back
// together: a partition (`hash:M/N`, `slice:M/N`) picks one part of the
// tests an adapter lists, and Merge combines the shards' details files
// into one answer and one JUnit report.
package shard

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters"
)

// Kinds of partition.
const (
	// Hash puts a test in part FNV-1a(name) mod N: a test stays in its
	// part when others are added or removed, and tests of one name (in
	// two Go packages, two cargo binaries) go together, as a single -run
	// or --exact filter selects them.
	Hash = "hash"
	// Slice cuts the sorted list into N contiguous parts of equal size:
	// even parts, but a new test shifts the boundaries.
	Slice = "slice"
)

// Partition is part Index (from 1) of Total.
type Partition struct {
	Kind         string
	Index, Total int
}

func (p Partition) String() string { return fmt.Sprintf("%s:%d/%d", p.Kind, p.Index, p.Total) }

// maxTotal bounds N: more parts than this is a typo, not a CI matrix.
const maxTotal = 10000

// Parse reads "hash:M/N" or "slice:M/N"; a bare "M/N" is hash. Every
// refusal is a one-line usage error that says what to write.
func Parse(spec string) (Partition, error) {
	s := strings.TrimSpace(spec)
	kind, frac, ok := strings.Cut(s, ":")
	if !ok {
		kind, frac = Hash, s
	}
	bad := func(why string) (Partition, error) {
		return Partition{}, adapters.Usagef("partition %q %s: write hash:M/N or slice:M/N with 1 ≤ M ≤ N, such as hash:1/3", spec, why)
	}
	if kind != Hash && kind != Slice {
		return bad("has an unknown kind " + strconv.Quote(kind))
	}
	ms, ns, ok := strings.Cut(frac, "/")
	if !ok {
		return bad("has no M/N")
	}
	m, err1 := strconv.Atoi(ms)
	n, err2 := strconv.Atoi(ns)
	switch {
	case err1 != nil || err2 != nil:
		return bad("is not two whole numbers")
	case n < 1 || n > maxTotal:
		return bad(fmt.Sprintf("has N=%d parts", n))
	case m < 1:
		return bad("counts parts from 1")
	case m > n:
		return bad(fmt.Sprintf("asks for part %d of only %d", m, n))
	}
	return Partition{Kind: kind, Index: m, Total: n}, nil
}

// Select is this part's share of tests, in the order of the sorted list
// (suite, then name). Every test is in exactly one of the N parts.
func (p Partition) Select(tests []adapters.TestRef) []adapters.TestRef {
	sorted := slices.Clone(tests)
	slices.SortFunc(sorted, func(a, b adapters.TestRef) int {
		return cmp.Or(cmp.Compare(a.Suite, b.Suite), cmp.Compare(a.Name, b.Name))
	})
	sorted = slices.Compact(sorted)
	if p.Kind == Slice {
		n := len(sorted)
		return sorted[(p.Index-1)*n/p.Total : p.Index*n/p.Total]
	}
	var out []adapters.TestRef
	for _, t := range sorted {
		if Part(t.Name, p.Total) == p.Index {
			out = append(out, t)
		}
	}
	return out
}

// Part is the hash part (from 1) of N a test name falls in.
func Part(name string, n int) int {
	h := fnv.New32a()
	h.Write([]byte(name))
	return int(h.Sum32()%uint32(n)) + 1
}
