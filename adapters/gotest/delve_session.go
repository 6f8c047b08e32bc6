package gotest

import (
	"bufio"
	"context"
	"debug/elf"
	"debug/gosym"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"strobe/adapters/kit"
	"strobe/trace"
)

// delveBudget is how many calls of the traced functions together, in
// units of trace.FullCalls, a package's run stops at; past it each
// function's breakpoints stop reporting at its next call. Each stop costs
// a Delve stop and JSON-RPC round trips (1 to 3.6 ms), so one budget for
// the run, not one per function, is what keeps a broad pattern's run
// short: go-cmp's TestSortKeys traced with reflect.* (151 functions, 7
// of them hot) stopped 75,000 times and took 2m46s against 0.3s; with a
// budget of 10,000 calls still 58s, with 3,000 under 20s. Delve
// still counts the calls (its hit count survives a hit condition that is
// never true), so Meta.Calls stays true.
const delveBudget = 3

// delveCount is how many calls of a capped function, in units of
// trace.FullCalls, Delve counts without reporting them (see cap); past
// them the count is a lower bound.
const delveCount = 2

// delveRun is the companion of a traced run: it drives the dlv of each
// package in turn.
type delveRun struct {
	spec *trace.Spec
	dir  string
	pkgs []delvePackage
	root string
}

func (r *delveRun) run(ctx context.Context) error {
	var errs []error
	for i := range r.pkgs {
		base := filepath.Join(r.dir, strconv.Itoa(i+1))
		c, err := dialDelve(ctx, base+".sock", func() bool { return kit.FileExists(base + ".done") })
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		if c == nil {
			continue // never built, or dlv never listened
		}
		s := newDelveSession(r, c, base)
		if err := s.run(ctx); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.pkgs[i].path, err))
		}
		if kit.FileExists(filepath.Join(r.dir, "refused")) {
			break
		}
	}
	return errors.Join(errs...)
}

// delveBreak is what a breakpoint of the tracer stands for.
type delveBreak struct {
	fn   string
	exit bool
}

// delveFrame is a traced call still running on a goroutine.
type delveFrame struct {
	fn       string
	enter    uint64 // its enter event, 0 when not recorded
	t        int64
	sampled  bool
	call     int64
	hasWatch bool
}

// delveSession traces one test binary.
type delveSession struct {
	spec   *trace.Spec
	root   string
	c      *dlvClient
	base   string // N: N.test, N.exit
	render valueRenderer
	cfg    dlvLoadConfig

	bps       map[int]delveBreak
	enterBP   map[string]dlvBreakpoint
	exitBPs   map[string][]int
	watches   map[string][]string // function → watched expressions
	capped    map[string]bool
	uncounted bool // a capped function is no longer counted (countedEnough)
	stacks    map[int64][]delveFrame

	out     *bufio.Writer
	file    *os.File
	enc     *json.Encoder
	id      uint64
	pid     int
	meta    trace.Meta
	calls   map[string]int64
	stopped int64 // calls of traced functions stopped at
	full    int64 // calls of a function recorded in full (the spec's FullCalls)
	budget  int64 // see delveBudget
	events  int
	maxEvts int
}

func newDelveSession(r *delveRun, c *dlvClient, base string) *delveSession {
	s := &delveSession{spec: r.spec, root: r.root, c: c, base: base, render: newValueRenderer(r.spec),
		bps: map[int]delveBreak{}, enterBP: map[string]dlvBreakpoint{}, exitBPs: map[string][]int{},
		watches: map[string][]string{}, capped: map[string]bool{}, stacks: map[int64][]delveFrame{},
		calls: map[string]int64{}, maxEvts: r.spec.MaxEvents}
	s.cfg = s.render.loadConfig()
	s.full = int64(r.spec.FullCalls)
	if s.full <= 0 {
		s.full = trace.FullCalls
	}
	s.budget = delveBudget * s.full
	s.meta = trace.Meta{Type: trace.MetaType, Tracer: "delve " + delveVersion}
	if s.maxEvts <= 0 {
		s.maxEvts = trace.MaxEvents
	}
	return s
}

func (s *delveSession) run(ctx context.Context) (err error) {
	stop := context.AfterFunc(ctx, func() { s.c.Close() })
	defer stop()
	defer s.c.Close()

	if err := s.open(); err != nil {
		return err
	}
	defer func() {
		if cerr := s.close(); err == nil {
			err = cerr
		}
	}()
	fns, err := s.c.functions()
	if err != nil {
		return err
	}
	matched, refused := s.match(fns)
	if refused != "" {
		s.meta.Refused = refused
		os.WriteFile(s.base+".exit", []byte("3"), 0o644)
		os.WriteFile(filepath.Join(filepath.Dir(s.base), "refused"), nil, 0o644)
		s.c.detach(true)
		return nil
	}
	for _, fn := range matched {
		if err := s.breakOn(fn); err != nil {
			s.meta.Warnings = append(s.meta.Warnings, fmt.Sprintf("%s not traced: %v", fn, err))
		}
	}
	return s.loop(ctx)
}

// open creates the event file of the test binary's process.
func (s *delveSession) open() error {
	var pid struct{ Pid int }
	if err := s.c.call("ProcessPid", struct{}{}, &pid); err != nil {
		return err
	}
	s.pid = pid.Pid
	f, err := os.Create(filepath.Join(s.spec.Out, fmt.Sprintf("events-%d.jsonl", s.pid)))
	if err != nil {
		return fmt.Errorf("the event file: %w", err)
	}
	s.file, s.out = f, bufio.NewWriterSize(f, 64<<10)
	s.enc = json.NewEncoder(s.out)
	s.enc.SetEscapeHTML(false)
	return nil
}

// close ends the event file with its Meta line.
func (s *delveSession) close() error {
	if s.file == nil {
		return nil
	}
	s.meta.Calls = s.calls
	if len(s.calls) == 0 {
		s.meta.Calls = nil
	}
	s.enc.Encode(s.meta)
	if err := s.out.Flush(); err != nil {
		s.file.Close()
		return err
	}
	return s.file.Close()
}

// match picks the functions to trace: those of the patterns and of the
// watches' patterns. Unmatched patterns get the nearest names.
func (s *delveSession) match(fns []string) (matched []string, refused string) {
	fns = traceable(fns)
	files := funcFiles(s.base + ".test")
	project := func(fn string) bool { return trace.ProjectFile(s.root, files[fn]) }
	set := map[string]bool{}
	counts := map[string]int{}
	pick := func(p trace.Pattern) []string {
		m, err := trace.NewMatcher(p, s.root)
		if err != nil {
			return nil
		}
		var got []string
		for _, fn := range fns {
			if goMatch(m, fn, files[fn]) {
				got = append(got, fn)
			}
		}
		return got
	}
	for _, p := range s.spec.Patterns {
		got := pick(p)
		counts[p.Raw] = len(got)
		if len(got) == 0 {
			s.meta.Unmatched = append(s.meta.Unmatched, trace.Unmatched{Pattern: p.Raw, Nearest: trace.Nearest(p, fns, project, 5)})
		}
		for _, fn := range got {
			set[fn] = true
		}
	}
	for _, w := range s.spec.Watches {
		for _, p := range w.On {
			got := pick(p)
			counts[p.Raw] += len(got)
			if len(got) == 0 {
				s.meta.Warnings = append(s.meta.Warnings, fmt.Sprintf("watch %s: pattern %s matched no function", w.Variable, p.Raw))
			}
			for _, fn := range got {
				set[fn] = true
				if !slicesContains(s.watches[fn], w.Variable) {
					s.watches[fn] = append(s.watches[fn], w.Variable)
				}
			}
		}
	}
	limit := s.spec.MaxFunctions
	if limit <= 0 {
		limit = trace.MaxFunctions
	}
	if len(set) > limit {
		widest := ""
		for raw, n := range counts {
			if widest == "" || n > counts[widest] {
				widest = raw
			}
		}
		return nil, fmt.Sprintf("trace patterns match %d functions, more than %d: %s alone matches %d; narrow it to a package's functions (pkg.Func, pkg.(*T).*) or one file (@file:NAME.go)", len(set), limit, widest, counts[widest])
	}
	for fn := range set {
		matched = append(matched, fn)
	}
	sort.Strings(matched)
	s.meta.Matched = matched
	return matched, ""
}

// goMatch says whether m matches fn as Delve names it, by its package's
// import path (github.com/dustin/go-humanize.Ordinal), or as Go code calls
// it, by the package name the path suggests (humanize.Ordinal).
func goMatch(m *trace.Matcher, fn, file string) bool {
	if m.Match(fn, file) {
		return true
	}
	alias := byPackageName(fn)
	return alias != "" && m.Match(alias, file)
}

// byPackageName is fn with its import path's last element made the
// package name goimports assumes for it ("go-" and a non-identifier tail
// dropped, a major version's /vN read as the element before it):
// github.com/dustin/humanize.Ordinal; "" when that is the element itself.
func byPackageName(fn string) string {
	head := fn
	if i := strings.IndexAny(head, "(["); i >= 0 {
		head = head[:i] // a receiver or type arguments may hold paths
	}
	slash := strings.LastIndex(head, "/")
	dot := strings.Index(head[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	end := slash + 1 + dot
	elem, base := head[slash+1:end], head[slash+1:end]
	if _, err := strconv.Atoi(strings.TrimPrefix(base, "v")); err == nil && strings.HasPrefix(base, "v") && slash > 0 {
		base = head[strings.LastIndex(head[:slash], "/")+1 : slash]
	}
	base = strings.TrimPrefix(base, "go-")
	if i := strings.IndexFunc(base, func(r rune) bool {
		return r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}); i >= 0 {
		base = base[:i]
	}
	if base == "" || base == elem {
		return ""
	}
	return fn[:slash+1] + base + fn[end:]
}

// traceable drops the names no one traces: compiler-generated type
// functions and wrappers, and the runtime's internals.
func traceable(fns []string) []string {
	out := fns[:0:0]
	for _, fn := range fns {
		switch {
		case strings.HasPrefix(fn, "type:"), strings.HasPrefix(fn, "go:"),
			strings.HasSuffix(fn, "-fm"), strings.Contains(fn, "·"),
			strings.HasPrefix(fn, "runtime."), strings.HasPrefix(fn, "internal/"):
			continue
		}
		out = append(out, fn)
	}
	return out
}

// funcFiles maps every function of a binary to the file that defines it,
// from the Go line table: one read of the binary instead of a Delve
// round trip per function, for @file and @project.
func funcFiles(bin string) map[string]string {
	files := map[string]string{}
	f, err := elf.Open(bin)
	if err != nil {
		return files
	}
	defer f.Close()
	sec, text := f.Section(".gopclntab"), f.Section(".text")
	if sec == nil || text == nil {
		return files
	}
	data, err := sec.Data()
	if err != nil {
		return files
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		return files
	}
	for i := range tab.Funcs {
		fn := &tab.Funcs[i]
		if file, _, _ := tab.PCToLine(fn.Entry); file != "" {
			files[fn.Name] = file
		}
	}
	return files
}

// breakOn sets a tracepoint at fn's entry and at each of its returns.
func (s *delveSession) breakOn(fn string) error {
	cfg := s.cfg
	bp, err := s.c.createBreakpoint(dlvBreakpoint{FunctionName: fn, Tracepoint: true, Line: -1, LoadArgs: &cfg})
	if err != nil {
		return err
	}
	s.bps[bp.ID], s.enterBP[fn] = delveBreak{fn: fn}, bp
	addrs, err := s.c.returnLocations(fn)
	if err != nil {
		return err
	}
	for _, a := range addrs {
		rb, err := s.c.createBreakpoint(dlvBreakpoint{Addr: a, TraceReturn: true, Line: -1, LoadArgs: &cfg})
		if err != nil {
			return err
		}
		s.bps[rb.ID] = delveBreak{fn: fn, exit: true}
		s.exitBPs[fn] = append(s.exitBPs[fn], rb.ID)
	}
	return nil
}

// loop continues the target until it exits, recording every hit.
func (s *delveSession) loop(ctx context.Context) error {
	for {
		st, err := s.c.command("continue")
		if err != nil {
			if ctx.Err() != nil {
				s.meta.Warnings = append(s.meta.Warnings, "the run was stopped before the tests ended")
				return nil
			}
			return err
		}
		if st.Exited {
			os.WriteFile(s.base+".exit", []byte(strconv.Itoa(st.ExitStatus)), 0o644)
			s.counts()
			s.c.detach(true)
			return nil
		}
		for _, th := range st.Threads {
			if th.Breakpoint == nil {
				continue
			}
			if b, ok := s.bps[th.Breakpoint.ID]; ok {
				s.hit(th, b)
			}
		}
	}
}

// counts reads the true call counts of capped functions from Delve's hit
// counts.
func (s *delveSession) counts() {
	if len(s.capped) == 0 {
		return
	}
	bps, err := s.c.breakpoints()
	if err != nil {
		return
	}
	for _, bp := range bps {
		if b, ok := s.bps[bp.ID]; ok && !b.exit && s.capped[b.fn] {
			s.calls[b.fn] = int64(bp.TotalHitCount)
		}
	}
}

func (s *delveSession) hit(th *dlvThread, b delveBreak) {
	now := time.Now().UnixNano()
	g := th.GoroutineID
	if b.exit {
		s.exit(th, b.fn, g, now)
		return
	}
	if s.capped[b.fn] {
		s.countedEnough(th, b.fn)
		return
	}
	s.calls[b.fn]++
	s.stopped++
	n := s.calls[b.fn]
	if s.stopped > s.budget {
		s.meta.Dropped++
		s.cap(b.fn)
		return
	}
	every := int64(s.spec.SampleEvery)
	if every <= 0 {
		every = trace.SampleEvery
	}
	record := (n <= s.full || (n-s.full)%every == 0) && s.events+2 <= s.maxEvts
	fr := delveFrame{fn: b.fn, t: now, sampled: n > s.full, call: n}
	stack := s.stacks[g]
	if record {
		e := trace.Event{Type: trace.Enter, T: now, PID: s.pid, Thread: "goroutine " + strconv.FormatInt(g, 10),
			Depth: len(stack), Parent: parentOf(stack), Function: b.fn, File: s.rel(th.File), Line: th.Line,
			Sampled: fr.sampled, Call: n}
		if th.BreakpointInfo != nil {
			for i := range th.BreakpointInfo.Arguments {
				v := &th.BreakpointInfo.Arguments[i]
				if v.Flags&dlvReturnArgument == 0 {
					e.Args = append(e.Args, s.render.value(v.Name, s.moreBytes(g, v.Name, v)))
				}
			}
		}
		e.Watches = s.readWatches(b.fn, g)
		fr.enter = s.write(&e)
	} else {
		s.meta.Dropped++
	}
	s.stacks[g] = append(stack, fr)
}

func (s *delveSession) exit(th *dlvThread, fn string, g int64, now int64) {
	stack := s.stacks[g]
	// The newest frame of fn is this call; frames above it ended without
	// a return (a panic unwound them, runtime.Goexit).
	i := len(stack) - 1
	for i >= 0 && stack[i].fn != fn {
		i--
	}
	if i < 0 {
		return // entered before its breakpoint was set
	}
	fr := stack[i]
	s.stacks[g] = stack[:i]
	if fr.enter == 0 {
		s.meta.Dropped++
		return
	}
	e := trace.Event{Type: trace.Exit, T: now, PID: s.pid, Thread: "goroutine " + strconv.FormatInt(g, 10),
		Depth: i, Parent: fr.enter, Function: fn, File: s.rel(th.File), Line: th.Line,
		DurationNS: now - fr.t, Sampled: fr.sampled, Call: fr.call}
	rets := th.ReturnValues
	if len(rets) == 0 && th.BreakpointInfo != nil {
		for _, v := range th.BreakpointInfo.Arguments {
			if v.Flags&dlvReturnArgument != 0 {
				rets = append(rets, v)
			}
		}
	}
	for i := range rets {
		e.Return = append(e.Return, s.render.value(rets[i].Name, s.moreBytes(g, rets[i].Name, &rets[i])))
	}
	if n := len(rets); n > 0 && rets[n-1].Type == "error" && !isNilError(&rets[n-1]) {
		e.Error = true
	}
	e.Watches = s.readWatches(fn, g)
	s.write(&e)
}

// parentOf is the newest recorded enter on a goroutine's stack.
func parentOf(stack []delveFrame) uint64 {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].enter != 0 {
			return stack[i].enter
		}
	}
	return 0
}

// readWatches evaluates fn's watches in the frame of the hit.
func (s *delveSession) readWatches(fn string, g int64) []trace.Value {
	var out []trace.Value
	for _, expr := range s.watches[fn] {
		v, err := s.c.eval(dlvEvalScope{GoroutineID: g}, expr, s.cfg)
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "delve Eval: ")
			out = append(out, trace.Value{Name: expr, Unavailable: msg})
			continue
		}
		out = append(out, s.render.value(expr, s.moreBytes(g, expr, &v)))
	}
	return out
}

// moreBytes loads the rest of a slice of bytes that the breakpoint's
// config cut at a list's few items: 9 bytes of a request or a file's
// head say little, 256 say what it was. The one Eval is paid only for a
// recorded hit whose argument, result or watch is such a slice. A result
// the source does not name (~r0) is no name Delve evaluates: it keeps the
// bytes its breakpoint loaded.
func (s *delveSession) moreBytes(g int64, expr string, v *dlvVariable) *dlvVariable {
	if !clippedBytes(v) {
		return v
	}
	full, err := s.c.eval(dlvEvalScope{GoroutineID: g}, expr, s.render.bytesConfig())
	if err != nil || !byteSlice(&full) || len(full.Children) <= len(v.Children) {
		return v
	}
	return &full
}

// cap turns fn's breakpoints into counters: its entry never reports
// again (Delve still counts it), its returns are cleared.
func (s *delveSession) cap(fn string) {
	bp := s.enterBP[fn]
	// A condition Delve sees can never hold ("== 0") makes it disable the
	// breakpoint (Delve 1.27) and the count stops there. "> N" keeps it
	// counting without a reported stop until the N+1st call, which
	// countedEnough then clears: counting costs a ptrace stop inside
	// Delve (about 0.4 ms), so a hot function is counted to a bound, not
	// at the price of minutes (go-cmp with reflect.*: 20,000 counted calls
	// a function took 65s, 2,000 take 8s).
	bp.HitCond = fmt.Sprintf("> %d", s.calls[fn]+delveCount*s.full)
	if err := s.c.amendBreakpoint(bp); err != nil {
		return
	}
	for _, id := range s.exitBPs[fn] {
		s.c.clearBreakpoint(id)
		delete(s.bps, id)
	}
	s.capped[fn] = true
	for g, stack := range s.stacks {
		kept := stack[:0]
		for _, fr := range stack {
			if fr.fn != fn {
				kept = append(kept, fr)
			}
		}
		s.stacks[g] = kept
	}
	if len(s.capped) == 1 { // one warning for the run, not one per function
		s.meta.Warnings = append(s.meta.Warnings, fmt.Sprintf("the run stopped at %d calls of the traced functions: later calls (first of %s) were counted, not recorded; narrow the patterns to see more", s.budget, fn))
	}
}

// countedEnough clears the entry breakpoint of a capped function Delve has
// counted delveCount × FullCalls more calls of: the count is kept as it stands.
func (s *delveSession) countedEnough(th *dlvThread, fn string) {
	bp := s.enterBP[fn]
	if th.Breakpoint != nil {
		s.calls[fn] = int64(th.Breakpoint.TotalHitCount)
	}
	s.c.clearBreakpoint(bp.ID)
	delete(s.bps, bp.ID)
	if !s.uncounted {
		s.uncounted = true
		s.meta.Warnings = append(s.meta.Warnings, fmt.Sprintf("%s was counted to %d calls, then no more: its count (and any later function's) is a lower bound", fn, s.calls[fn]))
	}
}

// write appends an event, numbered from 1.
func (s *delveSession) write(e *trace.Event) uint64 {
	s.id++
	s.events++
	e.ID = s.id
	s.enc.Encode(e)
	return e.ID
}

// rel makes a file relative to the project root when it is inside.
func (s *delveSession) rel(file string) string {
	if r, ok := kit.Rel(s.root, file); ok {
		return filepath.ToSlash(r)
	}
	return file
}
