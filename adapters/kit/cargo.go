package kit

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
)

// RustFailure is what a failed Rust test's output says of its failure.
type RustFailure struct {
	// File and Line are where it failed, as the output printed them
	// (relative to the workspace root, or absolute).
	File string
	Line int
	// Message is the panic's message, unclipped; paths in it are the
	// caller's (see ReadRustFailure).
	Message string
}

// ReadRustFailure reads a failed Rust test's output (libtest's captured
// output, cargo-nextest's) as format.RustPanic does, and knows two
// libraries whose failures its first panic misreads:
//
//   - proptest panics for every case it tries while it shrinks the
//     failing input, then once more with the verdict ("Test failed: …" and
//     "minimal failing input: x = 42") at the line of the proptest! macro.
//     The verdict is the failure: its message keeps the minimal input
//     (without the runner's counts), its place is the assertion's
//     (prop_assert's "at tests/p.rs:7", else the panic of the minimal
//     case itself), and the message says what a rerun replays: the case
//     proptest saved in its regression file.
//   - insta panics inside its own sources ("snapshot assertion for 'x'
//     failed in line 5", at ~/.cargo/registry/…/runtime.rs) after a
//     summary on stdout: the failure is at the summary's Source line, and
//     its message names the .snap file and gives the changed lines (or
//     the new value of a snapshot that has no file yet).
//
// A panic in a dependency's own sources (quickcheck's verdict, at
// ~/.cargo/registry/…/tester.rs) is at the first frame of its backtrace
// in the workspace, when the output has one (RUST_BACKTRACE).
//
// wsRoot is the workspace root the printed paths are relative to; rel
// turns such a path into the one a message shows.
func ReadRustFailure(out, wsRoot string, rel func(string) string) RustFailure {
	if rel == nil {
		rel = func(s string) string { return s }
	}
	// pretty_assertions colours its diff into a pipe too; libtest's JSON
	// carries the codes escaped, past the lines' own stripping.
	out = StripANSI(out)
	if f, ok := proptestFailure(out, wsRoot, rel); ok {
		return f
	}
	file, line, msg := format.RustPanic(out)
	f := RustFailure{File: file, Line: line, Message: msg}
	if strings.HasPrefix(msg, "test did not panic as expected") && file != "" {
		if attr := rustShouldPanicAttr(filepath.Join(wsRoot, file), line); attr != "" {
			f.Message = msg + "\n" + attr
		}
	}
	if filepath.IsAbs(file) && !Within(wsRoot, file) {
		// A panic in a dependency's sources (quickcheck's verdict): the
		// backtrace, when there is one, says where the project called it.
		if pf, pl, ok := rustProjectFrame(out, wsRoot); ok {
			f.File, f.Line = pf, pl
		}
	}
	if ins, ok := instaFailure(out, wsRoot, rel); ok {
		if ins.Message != "" {
			f.Message = ins.Message
		}
		if ins.File != "" {
			f.File, f.Line = ins.File, ins.Line
		}
	}
	return f
}

// rustShouldPanicAttr is the #[should_panic(expected = …)] above the test
// declared at path:line (libtest's "did not panic as expected at
// tests/t.rs:17:4" names the fn), as written, so that a test that did not
// panic says which panic it wanted; "" for a bare #[should_panic] or a
// source not read. Only the attribute lines right above the fn are read.
func rustShouldPanicAttr(path string, line int) string {
	if line < 2 {
		return ""
	}
	info, err := os.Stat(path)
	if err != nil || info.Size() > 4<<20 {
		return ""
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(b), "\n")
	if line > len(lines) {
		return ""
	}
	// The lines above the fn, back to the code before its attributes.
	var above []string
	for i := line - 2; i >= 0 && len(above) < 20; i-- {
		t := strings.TrimSpace(lines[i])
		if strings.HasSuffix(t, "}") || strings.HasSuffix(t, ";") || strings.HasSuffix(t, "{") {
			break
		}
		above = append(above, t)
	}
	slices.Reverse(above)
	text := strings.Join(above, " ")
	at := strings.LastIndex(text, "#[should_panic")
	if at < 0 {
		return ""
	}
	a := text[at:]
	end := strings.Index(a, ")]")
	if end < 0 || !strings.Contains(a[:end], "expected") {
		return ""
	}
	return a[:end+2]
}

// rustBacktraceAt is a backtrace frame's place: "             at ./tests/quick.rs:69:32".
var rustBacktraceAt = lazyre.New(`(?m)^[ \t]+at (.+?):(\d+)(?::\d+)?$`)

// rustProjectFrame is the first place on a panic's backtrace in the
// workspace: absolute under wsRoot, or relative ("./tests/quick.rs", to
// the test binary's directory, the package's) to a file the workspace
// root has (a member's is left alone: that root is not known here).
func rustProjectFrame(out, wsRoot string) (file string, line int, ok bool) {
	_, trace, found := strings.Cut(out, "\nstack backtrace:\n")
	if !found {
		return "", 0, false
	}
	for _, m := range rustBacktraceAt.Re().FindAllStringSubmatch(trace, -1) {
		file, line = m[1], 0
		if filepath.IsAbs(file) {
			if !Within(wsRoot, file) {
				continue
			}
			file, _ = filepath.Rel(wsRoot, file)
		} else if file = strings.TrimPrefix(file, "./"); !isFile(filepath.Join(wsRoot, file)) {
			continue
		}
		line, _ = strconv.Atoi(m[2])
		return file, line, true
	}
	return "", 0, false
}

var (
	// The head of a panic, new and old formats: "thread 't' (12) panicked at ".
	rustPanicHead = lazyre.New(`(?m)^thread '[^\n]*?' (?:\([^)\n]*\) )?panicked at `)
	// proptest's verdict (TestError's Display, then the runner's counts):
	// "Test failed: WHY.\nminimal failing input: x = 42\n\tsuccesses: 3".
	proptestVerdict = lazyre.New(`(?s)^Test failed: (.*)\.\nminimal failing input: (.*?)(?:\n\tsuccesses: |$)`)
	// prop_assert's reason ends where it failed: "… at tests/p.rs:7".
	proptestAssertAt = lazyre.New(`(?s) at ([^\s:]+\.rs):(\d+)$`)
	// "proptest: Saving this and future failures in /x/tests/p.proptest-regressions".
	proptestSaving = lazyre.New(`(?m)^proptest: Saving this and future failures in (.+)$`)
)

func proptestFailure(out, wsRoot string, rel func(string) string) (RustFailure, bool) {
	heads := rustPanicHead.Re().FindAllStringIndex(out, -1)
	for i := len(heads) - 1; i >= 0; i-- {
		file, line, msg := format.RustPanic(out[heads[i][0]:])
		m := proptestVerdict.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		why, input := m[1], strings.TrimRight(m[2], "\n")
		f := RustFailure{File: file, Line: line}
		if at := proptestAssertAt.FindStringSubmatch(why); at != nil {
			f.File = at[1]
			f.Line, _ = strconv.Atoi(at[2])
		} else {
			// The minimal case's own panic (an assert! in the body) comes
			// last before the verdict, with the verdict's reason.
			for j := i - 1; j >= 0; j-- {
				pf, pl, pm := format.RustPanic(out[heads[j][0]:heads[j+1][0]])
				if pm == why && pf != "" {
					f.File, f.Line = pf, pl
					break
				}
			}
		}
		f.Message = "Test failed: " + why + ".\nminimal failing input: " + input + "\n" + proptestReplay(out, wsRoot, file, rel)
		return f, true
	}
	return RustFailure{}, false
}

// proptestReplay says what a rerun of a failed property does: proptest
// replays the seeds of its regression file before drawing new cases.
// source is the file of the proptest! macro, which places that file.
func proptestReplay(out, wsRoot, source string, rel func(string) string) string {
	if m := proptestSaving.FindStringSubmatch(out); m != nil {
		return "proptest saved this case in " + rel(strings.TrimSpace(m[1])) + ": the rerun replays it first"
	}
	if f := proptestRegressions(wsRoot, source); f != "" {
		if _, err := os.Stat(f); err == nil {
			return "the rerun replays the cases saved in " + rel(f) + " first"
		}
	}
	return "proptest saved no regression file: the rerun draws new random cases and may not meet this one"
}

// proptestRegressions is where proptest's default persistence
// (FileFailurePersistence::SourceParallel("proptest-regressions")) keeps
// the failures of the tests in source: beside the directory holding the
// nearest lib.rs or main.rs above it, as proptest-regressions/PATH.txt;
// else next to the source, as NAME.proptest-regressions.
func proptestRegressions(wsRoot, source string) string {
	if source == "" {
		return ""
	}
	if !filepath.IsAbs(source) {
		source = filepath.Join(wsRoot, source)
	}
	for dir := filepath.Dir(source); ; {
		if isFile(filepath.Join(dir, "lib.rs")) || isFile(filepath.Join(dir, "main.rs")) {
			suffix, err := filepath.Rel(dir, source)
			if err != nil {
				return ""
			}
			return strings.TrimSuffix(filepath.Join(filepath.Dir(dir), "proptest-regressions", suffix), filepath.Ext(suffix)) + ".txt"
		}
		parent := filepath.Dir(dir)
		if parent == dir || !Within(wsRoot, parent) {
			break
		}
		dir = parent
	}
	return strings.TrimSuffix(source, filepath.Ext(source)) + ".proptest-regressions"
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

var (
	// insta's summary, as its SnapshotPrinter writes it.
	instaSummary  = lazyre.New(`(?m)^━+ Snapshot Summary ━+$`)
	instaFile     = lazyre.New(`(?m)^Snapshot file: (.+)$`)
	instaName     = lazyre.New(`(?m)^Snapshot: (.+)$`)
	instaSource   = lazyre.New(`(?m)^Source: (.+?):(\d+)$`)
	instaExpr     = lazyre.New(`(?m)^Expression: (.+)$`)
	instaOld      = lazyre.New(`(?m)^-old snapshot$`)
	instaDiffLine = lazyre.New(`^\s*(\d*)\s+(\d*)\s*│([-+ ])(.*)$`)
)

// instaMaxDiff bounds the changed lines a message shows.
const instaMaxDiff = 20

func instaFailure(out, wsRoot string, rel func(string) string) (RustFailure, bool) {
	loc := instaSummary.FindStringIndex(out)
	if loc == nil {
		return RustFailure{}, false
	}
	block := out[loc[1]:]
	if end := strings.Index(block, "\n────────────┴"); end >= 0 {
		block = block[:end]
	} else if end := rustPanicHead.FindStringIndex(block); end != nil {
		block = block[:end[0]]
	}
	var f RustFailure
	if m := instaSource.FindStringSubmatch(block); m != nil {
		f.File = m[1]
		f.Line, _ = strconv.Atoi(m[2])
	}
	name := "unnamed snapshot"
	if m := instaName.FindStringSubmatch(block); m != nil {
		name = strings.TrimSpace(m[1])
	}
	what := "the inline snapshot"
	snap := ""
	if m := instaFile.FindStringSubmatch(block); m != nil {
		snap = strings.TrimSpace(m[1])
		what = rel(snap)
	}
	expr := ""
	if m := instaExpr.FindStringSubmatch(block); m != nil {
		expr = ClipTo(strings.TrimSpace(m[1]), 120, "…")
	}
	var diff []string
	changed, gap := 0, false
	if i := strings.Index(block, "────────────┬"); i >= 0 {
		for l := range strings.Lines(block[i:]) {
			l = strings.TrimRight(l, "\n")
			if strings.HasPrefix(l, "┈") {
				gap = true
				continue
			}
			m := instaDiffLine.FindStringSubmatch(l)
			if m == nil || m[3] == " " {
				if m != nil {
					gap = true // an unchanged line between two changes
				}
				continue
			}
			changed++
			if changed > instaMaxDiff {
				continue
			}
			if gap && len(diff) > 0 {
				diff = append(diff, "…")
			}
			gap = false
			diff = append(diff, m[3]+m[4])
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "snapshot assertion for '%s' failed: ", name)
	of := ""
	if expr != "" {
		of = " of " + expr
	}
	switch {
	case !instaOld.MatchString(block) && snap != "":
		fmt.Fprintf(&b, "new snapshot, %s does not exist yet; the value%s:", what, of)
	case !instaOld.MatchString(block):
		fmt.Fprintf(&b, "new inline snapshot; the value%s:", of)
	default:
		fmt.Fprintf(&b, "the value%s differs from %s (-snapshot, +new):", of, what)
	}
	for _, l := range diff {
		b.WriteString("\n" + l)
	}
	if changed > instaMaxDiff {
		fmt.Fprintf(&b, "\n… %d more changed lines", changed-instaMaxDiff)
	}
	if snap != "" {
		pending := snap + ".new"
		abs := pending
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(wsRoot, abs)
		}
		if isFile(abs) {
			fmt.Fprintf(&b, "\ninsta wrote the new value to %s, pending review", rel(pending))
		}
	}
	f.Message = b.String()
	return f, true
}

// cargoWorkspaceTable is a Cargo.toml's [workspace] table header.
var cargoWorkspaceTable = lazyre.New(`(?m)^\s*\[workspace\]`)

// CargoWorkspaceTable says whether a Cargo.toml's text has a [workspace]
// table (a comment that names one is not it).
func CargoWorkspaceTable(manifest []byte) bool { return cargoWorkspaceTable.Match(manifest) }

// CargoWorkspace says whether dir's Cargo.toml has a [workspace] table.
func CargoWorkspace(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "Cargo.toml"))
	return err == nil && CargoWorkspaceTable(b)
}
