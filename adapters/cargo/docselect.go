package cargo

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// Selecting one doctest. cargo hands what follows `--` to rustdoc as
// --test-args, and rustdoc splits those at whitespace before libtest reads
// them: 'src/lib.rs - (line 3)' reaches libtest as four filters, any of
// which selects a test whose name contains it ("-" selects them all), and
// with --exact none. So a doctest is selected by words of its name that
// hold no whitespace: one filter (a substring: its item, the "3)" that
// ends its line, or its file) and a --skip for each other doctest of the
// crate that filter would select, by a word of that doctest's name that
// the selected one's does not contain. Which other doctests there are
// comes from the run (the crate's doctests it read, when no filter left
// any out) or from cargo's list of them (cargo test --doc -- --list).
// A run of doctests asked for by name selects them so too, among those
// cargo lists as it is planned (planDoctests).

// doctestSelection is the test arguments that select target alone among
// names (the crate's doctests, target among them or not): the filter with
// the fewest skips, the item's first when they tie. nil when no such
// words exist (two doctests whose every word the other's name holds).
func doctestSelection(target string, names []string) []string {
	args, extra := doctestsSelection([]string{target}, names)
	if len(extra) > 0 {
		return nil
	}
	return args
}

// doctestsSelection is the test arguments that select the wanted doctests
// among names (those of the crates the command runs). libtest runs a test
// that any filter selects and no --skip does, so there is a filter for
// each wanted doctest (a word of its name; none when an earlier wanted
// doctest's filter selects it already) and a --skip for each
// other doctest a filter selects, by a word of its name that no wanted
// doctest's name contains (a --skip that matched a wanted doctest would
// leave it out). Each wanted doctest's filter is the word that selects the
// fewest doctests no skip can leave out, then the fewest others, the
// item's first when they tie. extra are the other doctests selected that
// have no such word (a wanted doctest's name holds their every word): the
// arguments run them too. No arguments (nil) when there is no filter.
func doctestsSelection(wanted, names []string) (args, extra []string) {
	// libtest filters by the name without its mode: the words are chosen
	// from that.
	wanted = mapped(wanted, doctestBase)
	names = slices.Sorted(slices.Values(mapped(names, doctestBase))) // the skips in one order, whatever order the doctests ended in
	// skipWord is the first word of an unwanted doctest's name that no
	// wanted doctest's name contains; "" when there is none.
	skipWord := func(n string) string {
		for _, s := range selectWords(n) {
			if !slices.ContainsFunc(wanted, func(w string) bool { return strings.Contains(w, s) }) {
				return s
			}
		}
		return ""
	}
	var filters, skips []string
	for _, t := range wanted {
		if slices.ContainsFunc(filters, func(f string) bool { return strings.Contains(t, f) }) {
			continue // selected already
		}
		best, bestStuck, bestOthers := "", 0, 0
		for _, w := range selectWords(t) {
			stuck, others := 0, 0
			for _, n := range names {
				if slices.Contains(wanted, n) || !strings.Contains(n, w) {
					continue
				}
				others++
				if skipWord(n) == "" {
					stuck++
				}
			}
			if best == "" || stuck < bestStuck || stuck == bestStuck && others < bestOthers {
				best, bestStuck, bestOthers = w, stuck, others
			}
		}
		if best == "" { // no word at all: an empty name
			continue
		}
		filters = append(filters, best)
		for _, n := range names {
			if slices.Contains(wanted, n) || !strings.Contains(n, best) ||
				slices.ContainsFunc(skips, func(s string) bool { return strings.Contains(n, s) }) {
				continue
			}
			if s := skipWord(n); s != "" {
				skips = append(skips, s)
			} else if !slices.Contains(extra, n) {
				extra = append(extra, n)
			}
		}
	}
	if len(filters) == 0 {
		return nil, nil // no filter would run every doctest
	}
	args = filters
	for _, s := range skips {
		args = append(args, "--skip", s)
	}
	return args, extra
}

// doctestBase is a doctest's name without the mode libtest prints after
// it ("src/lib.rs - f (line 6) - compile fail"), which is not part of the
// name: rustdoc's --list leaves it out, and filters never see it.
func doctestBase(name string) string {
	for _, mode := range []string{" - compile fail", " - should panic", " - compile"} {
		if base, ok := strings.CutSuffix(name, mode); ok && strings.HasSuffix(base, ")") && isDoctestName(base) {
			return base
		}
	}
	return name
}

func mapped(s []string, f func(string) string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// selectWords are the words of a doctest's name a filter can be, in the
// order preferred: its item's, then the one that ends its line number
// ("3)"), then its file, then the rest.
func selectWords(name string) []string {
	m := doctestName.FindStringSubmatch(name)
	if m == nil {
		return strings.Fields(name)
	}
	words := strings.Fields(m[2])
	words = append(words, m[3]+")")
	if !strings.ContainsFunc(m[1], isSpace) {
		words = append(words, m[1])
	}
	for _, w := range strings.Fields(name[len(m[0]):]) {
		if w != "-" {
			words = append(words, w)
		}
	}
	return words
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
}

// docRerunAmong is the command that runs the doctest name of d's crate
// alone, names being the crate's doctests; the item's filter (docRerun)
// when no words select it alone.
func (p *cargoParser) docRerunAmong(d *cargoDocSuite, name string, names []string) string {
	sel := doctestSelection(name, names)
	if sel == nil {
		return p.docRerun(d, name)
	}
	argv := slices.Clone(p.rerun)
	if d.pkg != "" {
		argv = append(argv, "-p", p.spec(d.pkg, d.version))
	}
	return shell.Join(append(append(argv, "--doc", "--"), sel...))
}

// exactDocReruns gives each failed doctest the rerun that selects it
// alone, once every block of its crate has been read: among the doctests
// the run read, or, when a filter left some out or the run was cut short,
// among those cargo lists (the item's filter stays when the list cannot
// be had).
func (p *cargoParser) exactDocReruns() {
	first := map[string]*cargoDocSuite{}
	partial := map[string]bool{}
	for _, d := range p.docs {
		if d.name == "" {
			continue
		}
		if first[d.name] == nil {
			first[d.name] = d
		}
		if d.filtered > 0 || d.totals == nil {
			partial[d.name] = true
		}
	}
	names := map[string][]string{}
	var failed []report.Test
	for _, t := range p.rec.Tests() {
		if first[t.Suite] == nil {
			continue
		}
		names[t.Suite] = append(names[t.Suite], t.Name)
		if t.Failure != nil {
			failed = append(failed, t)
		}
	}
	for _, t := range failed {
		d := first[t.Suite]
		all := names[t.Suite]
		switch {
		case partial[t.Suite] && p.planned != nil:
			all = p.planned // the plan's list, of every package the run tests
		case partial[t.Suite]:
			ctx, cancel := context.WithTimeout(context.Background(), docListWait)
			l := p.docList(ctx, d)
			cancel()
			if l.err != nil {
				continue
			}
			all = l.names
		}
		p.rec.UpdateFailure(t.Suite, t.Name, func(f *report.Failure) { f.Rerun = p.docRerunAmong(d, t.Name, all) })
	}
}

// docListWait bounds cargo's listing of a crate's doctests: the answer
// waits for it, and an answer without the list keeps the item's rerun.
const docListWait = 15 * time.Second

// docList is cargo's list of a crate's doctests, in rustdoc's blocks
// (under edition 2024, the merged doctests, then those run apart).
type docList struct {
	names  []string
	blocks [][]string
	err    error
}

var (
	// "src/lib.rs - relock (line 16): test"
	docListed = lazyre.New(`^(.+): test$`)
	// "3 tests, 0 benchmarks" ends a block.
	docListEnd = lazyre.New(`^\d+ tests?, \d+ benchmarks?$`)
)

// docList asks cargo for the names of the doctests of d's crate: `cargo
// test [the run's build flags] -p PKG --doc -- --list`, which builds what
// the run built (nothing, when it is fresh) and compiles no doctest (but
// edition 2024's merged ones). Read once a crate.
func (p *cargoParser) docList(ctx context.Context, d *cargoDocSuite) *docList {
	key := d.pkg + "@" + d.version
	if l := p.lists[key]; l != nil {
		return l
	}
	if p.lists == nil {
		p.lists = map[string]*docList{}
	}
	if p.dir == "" { // output replayed, not a run
		l := &docList{err: fmt.Errorf("no project to list the doctests of")}
		p.lists[key] = l
		return l
	}
	argv := slices.Clone(p.rerun)
	if d.pkg != "" && !strings.HasPrefix(d.pkg, "doctests ") {
		argv = append(argv, "-p", p.spec(d.pkg, d.version))
	}
	l := listDoctests(ctx, argv, p.dir, p.env)
	p.lists[key] = l
	return l
}

// listDoctests runs `ARGV --doc -- --list` (ARGV being `cargo test` and
// its flags) in dir and reads the doctests' names.
func listDoctests(ctx context.Context, argv []string, dir string, env []string) *docList {
	l := &docList{}
	argv = append(slices.Clone(argv), "--doc", "--", "--list")
	if argv[0] == "cargo" && !strings.HasPrefix(argv[1], "+") {
		if direct, add := kit.CargoDirect(ctx, dir, env); direct != "" {
			if env == nil {
				env = os.Environ()
			}
			argv[0], env = direct, slices.Concat(env, add)
		}
	}
	out, stderr, err := kit.RunTool(ctx, kit.Tool{Dir: dir, Env: env, MaxOutput: 16 << 20}, argv...)
	if err != nil {
		l.err = fmt.Errorf("%s: %w: %s", shell.Join(argv), err, kit.Clip(strings.TrimSpace(string(stderr))))
		return l
	}
	var block []string
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case docListEnd.MatchString(line):
			l.blocks = append(l.blocks, block)
			block = nil
		case docListed.MatchString(line):
			name := docListed.FindStringSubmatch(line)[1]
			l.names = append(l.names, name)
			block = append(block, name)
		}
	}
	if len(block) > 0 {
		l.blocks = append(l.blocks, block)
	}
	if len(l.names) == 0 {
		l.err = fmt.Errorf("%s listed no doctest", shell.Join(argv))
	}
	return l
}

// planDoctests is the test arguments that run the doctests a request
// names (Test, or the doctests of Tests, --failed's) and no other: the
// words doctestsSelection chooses among the doctests cargo lists for the
// packages the run tests (list is `cargo test` and the run's cargo
// flags). When cargo cannot list them, or lists none so named, each
// doctest is selected by its item as before (doctestFilter), which may
// select more; note then says so, or names the doctests that no words
// leave out, for the answer's hint. A request that names no doctest has
// no listing: its test, if any, is its filter. listed are the doctests
// cargo listed, which the answer's reruns select among (exactDocReruns)
// rather than listing them again.
func planDoctests(ctx context.Context, req adapters.Request, list []string) (sel []string, note string, listed []string) {
	var wanted []string
	if req.Test != "" {
		wanted = append(wanted, req.Test)
	}
	for _, t := range req.Tests {
		if !slices.Contains(wanted, t.Name) {
			wanted = append(wanted, t.Name)
		}
	}
	var items []string
	for _, w := range wanted {
		if f := doctestFilter(w); !slices.Contains(items, f) {
			items = append(items, f)
		}
	}
	if len(wanted) == 0 || !slices.ContainsFunc(wanted, isDoctestName) {
		return items, "", nil
	}
	byItems := "the doctests asked for ran by their items (-- " + shell.Join(items) + "), which may select more of them"
	ctx, cancel := context.WithTimeout(ctx, docListWait)
	l := listDoctests(ctx, list, req.ProjectRoot, req.Env)
	cancel()
	if l.err != nil {
		return items, byItems + ": cargo did not list the doctests to select them alone (" + l.err.Error() + ")", nil
	}
	for _, w := range wanted {
		if !slices.Contains(l.names, doctestBase(w)) {
			return items, fmt.Sprintf("%s: cargo lists no doctest named %q", byItems, w), l.names
		}
	}
	sel, extra := doctestsSelection(wanted, l.names)
	if sel == nil {
		return items, byItems, l.names
	}
	if len(extra) > 0 {
		note = fmt.Sprintf("%d other doctest(s) ran too (%s): rustdoc splits cargo's test arguments at whitespace, and every word of their names is in those asked for, so no --skip leaves them out", len(extra), strings.Join(extra, ", "))
	}
	return sel, note, l.names
}
