package stuck

import (
	"bufio"
	"strconv"
	"strings"
)

// parseMacSample reads the call graph of macOS `sample PID 1 -file F`:
//
//	Call graph:
//	    825 Thread_15758523   DispatchQueue_1: com.apple.main-thread  (serial)
//	    + 825 start  (in libdyld.dylib) + 1  [0x7fff737cf3d5]
//	    +   825 main  (in rg) + 41  [0x10384b549]  main.cpp:12
//
// The call graph is a tree of sampled paths per thread, outermost first,
// with a count per node; the stack of a thread is its heaviest path (for
// a hung thread, its only one), innermost frame first. It builds on every
// system, so that its tests run on Linux too.
func parseMacSample(out string) []Stack {
	i := strings.Index(out, "Call graph:")
	if i < 0 {
		return nil
	}
	type node struct {
		depth    int
		count    int
		frame    Frame
		children []*node
	}
	var roots []*node // one per thread; frame.Func holds the thread's name
	var open []*node  // the path from the thread down to the last line
	sc := bufio.NewScanner(strings.NewReader(out[i+len("Call graph:"):]))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		if !strings.HasPrefix(line, "    ") {
			break // the next section ("Total number in stack", "Binary Images")
		}
		// Depth is the column where the count starts, after the tree's
		// marks (+ ! : |) and spaces.
		body := strings.TrimLeft(line, " +!:|")
		depth := len(line) - len(body)
		f := strings.Fields(body)
		if len(f) < 2 {
			continue
		}
		count, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		rest := strings.TrimSpace(body[len(f[0]):])
		if strings.HasPrefix(rest, "Thread_") {
			name := strings.TrimSpace(strings.TrimPrefix(rest, f[1]))
			if name == "" {
				name = f[1]
			}
			n := &node{depth: depth, count: count, frame: Frame{Func: name}}
			roots = append(roots, n)
			open = []*node{n}
			continue
		}
		if len(open) == 0 {
			continue
		}
		fr := Frame{Func: rest}
		if j := strings.Index(rest, "  (in "); j >= 0 {
			fr.Func = rest[:j]
			if k := strings.LastIndex(rest, "]  "); k >= 0 {
				fr.File, fr.Line = splitFileLine(strings.TrimSpace(rest[k+3:]))
			}
		}
		fr.Func = demangleRust(cleanFunc(strings.TrimSpace(fr.Func)))
		for len(open) > 1 && open[len(open)-1].depth >= depth {
			open = open[:len(open)-1]
		}
		n := &node{depth: depth, count: count, frame: fr}
		parent := open[len(open)-1]
		parent.children = append(parent.children, n)
		open = append(open, n)
	}
	var stacks []Stack
	for _, r := range roots {
		st := Stack{Name: r.frame.Func}
		var path []Frame
		for n := r; len(n.children) > 0; {
			best := n.children[0]
			for _, c := range n.children[1:] {
				if c.count > best.count {
					best = c
				}
			}
			path = append(path, best.frame)
			n = best
		}
		for j := len(path) - 1; j >= 0; j-- {
			st.Frames = append(st.Frames, path[j])
		}
		stacks = append(stacks, st)
	}
	return stacks
}
