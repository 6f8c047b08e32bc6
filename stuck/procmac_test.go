package stuck

import (
	"slices"
	"testing"
)

func TestMacTree(t *testing.T) {
	// launchd, a shell running the tests, its children and grandchild,
	// and processes of other trees.
	all := []macProc{
		{PID: 1, PPID: 1, Stat: macSRUN, Comm: "launchd"},
		{PID: 100, PPID: 1, Stat: macSRUN, Comm: "zsh"},
		{PID: 200, PPID: 100, Stat: macSRUN, Comm: "cargo"},
		{PID: 300, PPID: 200, Stat: macSSLEEP, Comm: "tests-1a2b"},
		{PID: 301, PPID: 200, Stat: macSZOMB, Comm: "rustc"},
		{PID: 400, PPID: 300, Stat: macSRUN, Comm: "sleep"},
		{PID: 500, PPID: 1, Stat: macSRUN, Comm: "Finder"},
	}
	for _, tc := range []struct {
		name string
		root int
		want []int
		ok   bool
	}{
		{"the run's tree, breadth first, zombies left out", 200, []int{200, 300, 400}, true},
		{"a leaf", 400, []int{400}, true},
		{"launchd is its own parent, not its own child", 1, []int{1, 100, 500, 200, 300, 400}, true},
		{"root gone", 999, nil, false},
		{"root a zombie", 301, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree, ok := macTree(all, tc.root)
			var got []int
			for _, p := range tree {
				got = append(got, p.PID)
			}
			if ok != tc.ok || !slices.Equal(got, tc.want) {
				t.Errorf("macTree(%d) = %v, %v; want %v, %v", tc.root, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestMacTreeCycle(t *testing.T) {
	// A pid reused while the list was read can make two processes each
	// other's parent: the walk must still end.
	tree, ok := macTree([]macProc{{PID: 10, PPID: 11}, {PID: 11, PPID: 10}}, 10)
	if !ok || len(tree) != 2 {
		t.Errorf("macTree on a cycle = %v, %v", tree, ok)
	}
}

func TestMacProcSample(t *testing.T) {
	for _, tc := range []struct {
		stat  int8
		state byte
	}{{macSIDL, 'R'}, {macSRUN, 'R'}, {macSSLEEP, 'S'}, {macSSTOP, 'T'}, {macSZOMB, 'Z'}} {
		if got := macState(tc.stat); got != tc.state {
			t.Errorf("macState(%d) = %c, want %c", tc.stat, got, tc.state)
		}
	}
	p := macProcSample(macProc{PID: 300, PPID: 200, Start: 1_700_000_000_123_456, Stat: macSSLEEP, Comm: "tests-1a2b"},
		macCPU(1.25, 0.5), "/p/target/debug/deps/tests-1a2b", []string{"tests-1a2b", "--format", "json"})
	if p.ProcKey != (ProcKey{PID: 300, Start: 1_700_000_000_123_456}) || p.PPID != 200 || p.Exe == "" || len(p.Args) != 3 {
		t.Errorf("process %+v", p)
	}
	if len(p.Threads) != 1 {
		t.Fatalf("threads %+v, want the task as one thread", p.Threads)
	}
	th := p.Threads[0]
	if th.RunNS != 1_750_000_000 || th.State != 'S' || th.TID != 300 {
		t.Errorf("thread %+v, want 1.75 s of CPU in state S", th)
	}
	// Nothing says what it waits for: it must never count as blocked.
	if th.Wait.Kind.Blocked() {
		t.Errorf("wait %v is blocked; without waits read, no thread may be", th.Wait)
	}
	if macCPU(-1, 0) != 0 {
		t.Error("negative CPU time is not zero")
	}
}
