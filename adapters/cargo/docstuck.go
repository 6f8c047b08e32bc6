package cargo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/internal/lazyre"
)

var (
	// The function rustdoc wraps a doctest's code in (edition 2021, and
	// a doctest run apart under 2024): "_doctest_main_src_lib_rs_16_0",
	// its file with every character but letters and digits made "_", its
	// line, and how many doctests on that line came before it.
	doctestMain = lazyre.New(`_doctest_main_(\w+?)_(\d+)_\d+\b`)
	// A merged doctest under edition 2024: "doctest_bundle_2024::__doctest_2::main",
	// the index of its name among the merged ones, sorted.
	doctestMerged = lazyre.New(`\bdoctest_bundle_\d+::__doctest_(\d+)::`)
)

// NameStuck names a stuck doctest (adapters.StuckNamer): rustdoc prints a
// doctest's name only once it has ended, so a stuck one was named after
// the command. Its program's stacks show the function rustdoc wraps it
// in, which holds its file and line (edition 2021) or its index among the
// crate's merged doctests (2024); cargo's list of the crate's doctests
// gives the name that holds them (the item is in the name, not in the
// function). Without the list, the name says which doctest it is and that
// rustdoc's name is unknown.
func (p *cargoParser) NameStuck(ctx context.Context, funcs []string) (adapters.StuckName, bool) {
	d := p.lastDoc()
	if d == nil {
		return adapters.StuckName{}, false
	}
	var file string
	line, merged := 0, -1
	for _, f := range funcs {
		if m := doctestMain.FindStringSubmatch(f); m != nil {
			file = m[1]
			line, _ = strconv.Atoi(m[2])
			break
		}
		if m := doctestMerged.FindStringSubmatch(f); m != nil {
			merged, _ = strconv.Atoi(m[1])
			break
		}
	}
	if line == 0 && merged < 0 {
		return adapters.StuckName{}, false
	}
	l := p.docList(ctx, d)
	name := ""
	switch {
	case l.err != nil:
	case line > 0:
		// The file's mangled name may hold "_" and digits of its own: a
		// name's function is found whole among the stacks'.
		for _, n := range l.names {
			if m := doctestName.FindStringSubmatch(n); m != nil && m[3] == strconv.Itoa(line) &&
				slices.ContainsFunc(funcs, func(f string) bool { return strings.Contains(f, "_doctest_main_"+mangledFile(m[1])+"_"+m[3]+"_") }) {
				name = n
				break
			}
		}
	case len(l.blocks) > 0 && merged < len(l.blocks[0]):
		// The merged doctests are rustdoc's first block, sorted by name
		// as it numbers them.
		name = l.blocks[0][merged]
	}
	if name == "" || p.ended(d, name) {
		return p.unnamedDoctest(d, file, line, merged, l.err), true
	}
	sn := adapters.StuckName{Name: name, Suite: d.name, Rerun: p.docRerunAmong(d, name, l.names)}
	if m := doctestName.FindStringSubmatch(name); m != nil {
		sn.File = p.relPath(m[1])
		sn.Line, _ = strconv.Atoi(m[3])
	}
	return sn, true
}

// ended says whether the run read the doctest's end: then it is not the
// one stuck.
func (p *cargoParser) ended(d *cargoDocSuite, name string) bool {
	_, ok := p.rec.Lookup(d.name, name)
	return ok
}

// unnamedDoctest is a stuck doctest whose name is unknown: where its
// function says it is (its file among the doctests read, its line), and
// why the name is missing.
func (p *cargoParser) unnamedDoctest(d *cargoDocSuite, file string, line, merged int, err error) adapters.StuckName {
	why := "rustdoc names a doctest only once it ends"
	if err != nil {
		why += ", and cargo's list of the doctests failed: " + err.Error()
	}
	if line == 0 {
		return adapters.StuckName{Name: fmt.Sprintf("merged doctest %d of %s (its name unknown: %s)", merged, d.name, why)}
	}
	sn := adapters.StuckName{Line: line}
	for _, t := range p.rec.Tests() {
		if m := doctestName.FindStringSubmatch(t.Name); t.Suite == d.name && m != nil && mangledFile(m[1]) == file {
			sn.File = p.relPath(m[1])
			break
		}
	}
	where := sn.File
	if where == "" {
		where = "the file " + file + " stands for" // its mangled name
	}
	sn.Name = fmt.Sprintf("the doctest of %s at line %d (its name unknown: %s)", where, line, why)
	return sn
}

// mangledFile is a doctest's file as rustdoc puts it in the name of the
// function it wraps the doctest in: every character but ASCII letters and
// digits made "_".
func mangledFile(file string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return '_'
	}, file)
}
