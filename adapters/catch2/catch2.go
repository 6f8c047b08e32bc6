package catch2

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// catch2 runs a Catch2 test binary (v2 or v3) with the XML reporter and reads
// the report as it is written.
//
// The report goes to a file of its own (-r xml -o FILE), never to stdout: the
// tests' own printf and the sanitizers' reports go to the binary's stdout and
// stderr, and would corrupt a report that shared them. Catch2's XML writer
// flushes after every start tag it closes and every end tag, so a test case's
// start is in the file before its body runs; a goroutine reads the file as it
// grows (polling every few milliseconds, less often while nothing comes) and feeds an XML decoder, which is
// how the stuck detector learns, live, which test is running. A FIFO would
// spare the polling but blocks Catch2's open until a reader comes and cannot
// tell "not opened yet" from "closed"; a file also survives the process dying.
//
//	BIN [USER ARGS] -r xml -o DIR/report.xml -d yes [SPEC]
//
// SPEC is the level's tag ([unit], [integration], [e2e]) or one test's name
// with Catch2's test-spec characters (\ , [ ] " ~ *) escaped with a backslash.
//
// Detection: with a command, the binary must look like Catch2 (an ELF or
// Mach-O file holding Catch2's own strings) and answer --list-tests within
// probeTimeout, so a binary that is not Catch2, or hangs, neither hangs nor
// fools detection. Without one, a CMake project that mentions Catch2 is
// searched for built Catch2 binaries in its build trees (build*/,
// cmake-build-*/, out/): exactly one is used, and the answer says so; none or
// several is a usage error that lists them and says how to pass --command.
//
// How results are read:
//   - A test case is a test; a failure names the first failed assertion's
//     file:line, its section path, and its macro with the original and
//     expanded expression; later failures of the same test are added to the
//     message. INFO/CAPTURE messages go with the assertion they precede.
//   - FatalErrorCondition (Catch2 caught a signal inside the test) fails the
//     test with the signal and the last assertion reached, and is crash
//     evidence naming the test.
//   - Sanitizer reports (ASan, UBSan, TSan, LSan) on stderr are attached to
//     the test running when they came, and to the crash; a fatal one kills
//     the binary mid-test, so that test fails with the report's first frame
//     in the project as file:line.
//   - Warnings, StdOut and StdErr captured by Catch2 are the test's output;
//     v3's SKIP is a skipped test.
type catch2 struct{}

// New returns the catch2 adapter.
func New() adapters.Adapter { return catch2{} }

func (catch2) Name() string { return "catch2" }

// probeTimeout bounds the --list-tests probe of a command.
var probeTimeout = 3 * time.Second

// ProbesCommand: Detect reads the command's program (adapters.CommandProber).
func (catch2) ProbesCommand() {}

func (catch2) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		bin, err := kit.ResolveProgram(req.ProjectRoot, req.Command[0], req.Env)
		if err != nil || !looksLikeCatch2(bin) {
			return adapters.Detection{Hint: "catch2: the command is not a Catch2 test binary"}
		}
		if err := probeCatch2(bin, req.ProjectRoot, req.Env); err != nil {
			return adapters.Detection{Hint: "catch2: " + err.Error() + " (pass --framework catch2 to run it as Catch2 anyway)"}
		}
		return adapters.Detection{Confidence: 95, Hint: "the command is a Catch2 test binary"}
	}
	if kit.CMakeMentions(req.ProjectRoot, "Catch2", "catch_discover_tests") {
		return adapters.Detection{Confidence: 80, Hint: "CMake project using Catch2"}
	}
	return adapters.Detection{}
}

// catch2Markers are strings every Catch2 binary holds (its command line
// parser and its help text).
var catch2Markers = [][]byte{[]byte("--list-tests"), []byte("Catch2")}

func looksLikeCatch2(path string) bool { return kit.LooksLikeTestBinary(path, catch2Markers...) }

// probeCatch2 runs BIN --list-tests in its own process group and checks
// that it answers like Catch2 within probeTimeout.
func probeCatch2(bin, dir string, env []string) error {
	out, errOut, err := kit.RunTool(context.Background(), kit.Tool{Dir: dir, Env: env, Timeout: probeTimeout}, bin, "--list-tests")
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s did not answer --list-tests within %v", bin, probeTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("cannot run %s: %v", bin, err)
	}
	// v2 exits with the number of tests listed; v3 with 0. A binary
	// that defines a test case twice begins the listing and stops: it is
	// Catch2, and its run says what to fix.
	if !catch2Listing.Match(out) && format.FindCatch2Duplicate(strings.Split(string(errOut), "\n")) == nil {
		return fmt.Errorf("%s does not list its tests like Catch2", bin)
	}
	return nil
}

// catch2Listing matches the header of --list-tests (v2 and v3) and its count.
var catch2Listing = lazyre.New(`(?m)^(All available test cases|Matching test cases):\s*$(?s:.*)^\s*\d+ (matching )?test cases?\b`)

// catch2ValueOptions are the Catch2 options that take a separate value.
var catch2ValueOptions = []string{"-r", "--reporter", "-o", "--out", "-d", "--durations", "-c", "--section",
	"-n", "--name", "--order", "--rng-seed", "-w", "--warn", "-x", "--abortx", "--use-colour", "--colour-mode",
	"--wait-for-keypress", "-v", "--verbosity", "-D", "--min-duration", "-f", "--input-file", "--shard-count",
	"--shard-index", "--benchmark-samples", "--benchmark-resamples", "--benchmark-confidence-interval",
	"--benchmark-warmup-time", "--libidentify"}

// catch2Args splits a command's arguments into the ones kept (the reporter,
// its output, durations, listing and debugger breaks are the plan's to set)
// and the test specs it gives.
func catch2Args(args []string) (kept, specs []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case slices.Contains([]string{"-r", "--reporter", "-o", "--out", "-d", "--durations"}, name):
			if !hasValue {
				i++
			}
			continue
		case slices.Contains([]string{"-l", "--list-tests", "--list-tags", "--list-reporters", "--list-test-names-only", "--list-listeners", "-b", "--break", "-h", "-?", "--help"}, a):
			continue
		case strings.HasPrefix(a, "-") && slices.Contains(catch2ValueOptions, name) && !hasValue:
			kept = append(kept, a)
			if i+1 < len(args) {
				i++
				kept = append(kept, args[i])
			}
			continue
		case strings.HasPrefix(a, "-"):
			kept = append(kept, a)
			continue
		}
		kept = append(kept, a)
		specs = append(specs, a)
	}
	return kept, specs
}

// catch2Spec escapes a test name for Catch2's test-spec parser. A name
// ending or starting with * still matches as a wildcard (the parser removes
// the escape before it looks for wildcards), and matching ignores case.
// Catch2 reads a spec that begins "exclude:" as an exclusion, escaped or
// quoted alike: such a name's first letter becomes a wildcard, which
// still takes the test (a test named "exclude:this one" ran every other).
func catch2Spec(name string) string {
	var b strings.Builder
	for _, c := range strings.TrimSpace(name) {
		if strings.ContainsRune(`\,[]"~*`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	spec := b.String()
	if len(spec) > len("exclude:") && strings.EqualFold(spec[:len("exclude:")], "exclude:") {
		spec = "*" + spec[1:]
	}
	return spec
}

func catch2LevelTag(l adapters.Level) string {
	if l == adapters.LevelAll {
		return ""
	}
	return "[" + string(l) + "]"
}

// catch2Binary is the test binary to run and its arguments: the
// command's, or the one Catch2 binary in the project's build trees.
func catch2Binary(req adapters.Request) (bin string, userArgs []string, note string, err error) {
	if len(req.Command) > 0 {
		b, err := kit.ResolveProgram(req.ProjectRoot, req.Command[0], req.Env)
		if err != nil {
			return "", nil, "", adapters.Usagef("catch2: cannot find %s: give the test binary's path", req.Command[0])
		}
		bin, userArgs = b, req.Command[1:]
	} else {
		bins, trees := kit.FindCMakeBinaries(req.ProjectRoot, looksLikeCatch2)
		switch len(bins) {
		case 1:
			bin = filepath.Join(req.ProjectRoot, bins[0])
			note = fmt.Sprintf("ran %s, the only Catch2 test binary in the build trees (pass --command to run another)", bins[0])
		case 0:
			where := "no CMake build tree (build/, cmake-build-*/, out/)"
			if len(trees) > 0 {
				where = "no built Catch2 test binary in " + strings.Join(trees, ", ")
			}
			return "", nil, "", &adapters.UsageError{Msg: "catch2: the tests are not built: " + where, Framework: "catch2",
				Hint: fmt.Sprintf("build them with `%s`, then rerun, or pass --command with the test binary", kit.CMakeBuildCommand(req.ProjectRoot, trees))}
		default:
			return "", nil, "", adapters.Usagef("catch2: several Catch2 test binaries found: %s: pass --command with the one to run (for example --command %s)", strings.Join(bins, ", "), shell.Quote(bins[0]))
		}
	}
	return bin, userArgs, note, nil
}

func (catch2) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	bin, userArgs, note, err := catch2Binary(req)
	if err != nil {
		return nil, err
	}
	stale := kit.StaleCheck(req.ProjectRoot, bin)
	kept, specs := catch2Args(userArgs)
	if len(specs) > 0 && (req.Test != "" || req.Level != adapters.LevelAll || len(req.Tests) > 0) {
		return nil, adapters.Usagef("catch2: the command already selects tests (%s): drop them, or drop --test/--level", strings.Join(specs, " "))
	}
	dir, err := os.MkdirTemp("", "strobe-catch2-")
	if err != nil {
		return nil, fmt.Errorf("catch2: report directory: %w", err)
	}
	xmlPath := filepath.Join(dir, "report.xml")
	argv := append([]string{bin}, kept...)
	argv = append(argv, "-r", "xml", "-o", xmlPath, "-d", "yes")
	var spec string
	switch {
	case len(req.Tests) > 0:
		spec = multiSpec(req.Tests)
	case req.Test != "":
		spec = catch2Spec(req.Test)
	case req.Level != adapters.LevelAll:
		spec = catch2LevelTag(req.Level)
	}
	shown := append([]string{bin}, kept...) // without the report, in a directory removed after the run
	if spec != "" {
		argv = append(argv, spec)
		shown = append(shown, spec)
	}
	rec.BeginTesting() // the binary is built already
	p := newCatch2Parser(rec, req.ProjectRoot, dir, xmlPath)
	p.rerun = append([]string{bin}, kept...)
	p.spec = spec
	p.order, p.seedAt = catch2Randomness(p.rerun)
	p.test, p.level, p.note, p.stale = req.Test, req.Level, note, stale
	p.env, p.tests, p.ownSpecs = req.Env, req.Tests, len(specs) > 0
	p.start()
	plan := &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p, Shown: shell.Join(shown)}
	if err := traced(req, plan); err != nil {
		p.Close() // its report directory
		return nil, err
	}
	return plan, nil
}

// catch2Randomness reads a command's --order and finds its --rng-seed:
// seedAt is the index in argv of the seed's value (of the whole
// --rng-seed=VALUE argument), -1 when there is none.
func catch2Randomness(argv []string) (order string, seedAt int) {
	seedAt = -1
	for i := 1; i < len(argv); i++ {
		name, v, has := strings.Cut(argv[i], "=")
		if name != "--order" && name != "--rng-seed" {
			if strings.HasPrefix(argv[i], "-") && slices.Contains(catch2ValueOptions, name) && !has {
				i++ // another option's value
			}
			continue
		}
		at := i
		if !has && i+1 < len(argv) {
			i++
			at, v = i, argv[i]
		}
		if name == "--order" {
			order = v
		} else {
			seedAt = at
		}
	}
	return order, seedAt
}

// catch2Failure is one failed assertion, exception or fatal condition.
type catch2Failure struct {
	sections []string
	file     string
	line     int
	text     string
	fatal    string // the signal, for a FatalErrorCondition
}

type catch2Test struct {
	stopped bool // Catch2 caught the SIGTERM or SIGINT that stopped the run
	name    string
	file    string
	line    int
	// failures are its failed assertions, the first and the
	// kit.LaterKept after it; omitted counts the rest (a CHECK failing a
	// million times in a loop holds no more).
	failures []catch2Failure
	omitted  int
	skipped  bool
	// expected is the tag that makes its failures expected: "[!shouldfail]"
	// (Catch2 fails the test when none comes) or "[!mayfail]".
	expected string
}

// catch2Parser reads the XML report (from its own goroutine) and the
// binary's stdout and stderr (from Line).
type catch2Parser struct {
	rec     *adapters.Recorder
	root    string
	dir     string
	tail    *kit.TailFile
	decoded chan struct{} // closed when the decoder goroutine returns
	// stopOnce ends the tail once, from Finish or Close.
	stopOnce sync.Once

	rerun []string
	spec  string // the test spec the plan added: the run's selection
	// order is the command's --order; seedAt the index in rerun of its
	// --rng-seed's value (-1 for none). A seed drawn at run time (time,
	// random-device; v3's default) is read from the report: seed.
	order  string
	seedAt int
	test   string
	level  adapters.Level
	note   string
	stale  kit.Pending // the stale-build note, made beside the run
	// env is the client's environment, for the binary's listing after a
	// crash or a stop (unrun); tests the run's several tests (Request.Tests);
	// ownSpecs says the command gave test specs of its own.
	env      []string
	tests    []adapters.TestRef
	ownSpecs bool

	mu        sync.Mutex // guards what follows: the decoder and Line share it
	sawRoot   bool
	version   int    // 2 or 3, from the root element
	seed      string // the run's seed: v2's Randomness element, v3's rng-seed attribute
	cur       *catch2Test
	last      string // the last test that started
	started   int
	skipped   int // tests recorded skipped
	fatal     *catch2Fatal
	xmlErr    error
	san       *sanitizerReport // the report last begun
	sanReader format.SanitizerReader
	sans      []*sanitizerReport
	errLines  []string // stderr outside any test, for a binary that rejected its arguments
	pending   []catch2Line
}

type catch2Fatal struct {
	test   string
	signal string
	file   string
	line   int
}

func newCatch2Parser(rec *adapters.Recorder, root, dir, xmlPath string) *catch2Parser {
	return &catch2Parser{rec: rec, root: root, dir: dir, seedAt: -1,
		tail: kit.NewTailFile(xmlPath), decoded: make(chan struct{})}
}

func (p *catch2Parser) start() {
	go func() {
		defer close(p.decoded)
		p.decode(p.tail)
	}()
}

// decode reads the report's elements as they come. The element stack gives
// each one its context: sections nest, an Expression holds its Original,
// Expanded and an Exception or FatalErrorCondition.
func (p *catch2Parser) decode(r io.Reader) {
	dec := xml.NewDecoder(r)
	var stack []string
	var text strings.Builder
	var sections []string
	var infos []string
	type expr struct {
		success, typ, file, original, expanded string
		line                                   int
	}
	var ex *expr
	var elemFile string
	var elemLine int
	var result *catch2Result
	attr := func(se xml.StartElement, name string) string {
		for _, a := range se.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			if err != io.EOF {
				p.mu.Lock()
				p.xmlErr = err
				p.mu.Unlock()
			}
			return
		}
		p.mu.Lock()
		p.flush(dec.InputOffset()) // the lines that came before this token was whole
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			stack = append(stack, name)
			text.Reset()
			switch name {
			case "Catch":
				p.sawRoot, p.version = true, 2
			case "Catch2TestRun":
				p.sawRoot, p.version = true, 3
				p.seed = attr(t, "rng-seed")
			case "Randomness":
				// v2 writes it when the seed is not 0 (its default).
				p.seed = attr(t, "seed")
			case "TestCase":
				name := strings.TrimSpace(attr(t, "name"))
				if name == "" {
					// Catch2 names every test case ("Anonymous test case
					// N"): a nameless one is not a test it reported.
					p.cur = nil
					break
				}
				line, _ := strconv.Atoi(attr(t, "line"))
				p.cur = &catch2Test{name: name, file: attr(t, "filename"), line: line, expected: expectedTag(attr(t, "tags"))}
				sections, infos, ex = nil, nil, nil
				p.last = p.cur.name
				p.started++
				p.rec.Start("", p.cur.name)
			case "Section":
				sections = append(sections, strings.TrimSpace(attr(t, "name")))
			case "Expression":
				line, _ := strconv.Atoi(attr(t, "line"))
				ex = &expr{success: attr(t, "success"), typ: attr(t, "type"), file: attr(t, "filename"), line: line}
			case "Exception", "FatalErrorCondition", "Failure", "Skip":
				elemFile = attr(t, "filename")
				elemLine, _ = strconv.Atoi(attr(t, "line"))
			case "OverallResult":
				// The test ends with this element's end: StdOut and StdErr
				// come inside it.
				if p.cur != nil {
					d, _ := strconv.ParseFloat(attr(t, "durationInSeconds"), 64)
					skips, _ := strconv.Atoi(attr(t, "skips"))
					result = &catch2Result{success: attr(t, "success") == "true", skips: skips, d: kit.DurationOf(d)}
				}
			}
		case xml.CharData:
			// A test that writes without end to std::cout makes one
			// StdOut element as large: keep its head (the Recorder keeps
			// a bounded part of each test's output anyway).
			if room := catch2MaxText - text.Len(); room > 0 {
				text.Write(t[:min(len(t), room)])
			}
		case xml.EndElement:
			name := t.Name.Local
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			body := strings.TrimSpace(text.String())
			text.Reset()
			switch name {
			case "Section":
				if len(sections) > 0 {
					sections = sections[:len(sections)-1]
				}
			case "Info":
				infos = append(infos, body)
			case "Warning":
				p.output("warning: " + body + "\n")
			case "Original":
				if ex != nil {
					ex.original = body
				}
			case "Expanded":
				if ex != nil {
					ex.expanded = body
				}
			case "StdOut", "StdErr":
				p.output(body + "\n")
			case "OverallResult":
				if p.cur != nil && result != nil {
					p.cur.skipped = p.cur.skipped || result.skips > 0 && result.success
					p.finishTest(result.success, result.d)
				}
				result = nil
			case "Skip":
				if p.cur != nil {
					p.cur.skipped = true
					p.output("skipped: " + body + "\n")
				}
			case "Exception", "FatalErrorCondition", "Failure":
				f := catch2Failure{sections: slices.Clone(sections), file: elemFile, line: elemLine}
				var msg []string
				if ex != nil {
					msg = append(msg, expressionText(ex.typ, ex.original, ex.expanded, false)...)
				}
				if ex != nil && strings.HasPrefix(ex.original, "{Unknown expression") {
					msg = nil // Catch2's placeholder when no assertion came after the last one reported
				}
				switch name {
				case "Exception":
					msg = append(msg, "due to unexpected exception with message:", "  "+body)
				case "FatalErrorCondition":
					f.fatal = body
					if stopSignal(body) {
						// strobe stopped the run (timeout, stuck, cancel): the
						// test did not fail, it was still running.
						if p.cur != nil {
							p.cur.stopped = true
						}
						break
					}
					msg = append(msg, "due to a fatal error condition:", "  "+body,
						"(the test crashed after the last assertion it reached, at this line, or at its start)")
					if p.cur != nil {
						p.fatal = &catch2Fatal{test: p.cur.name, signal: body, file: elemFile, line: elemLine}
					}
				case "Failure":
					if body != "" {
						msg = append(msg, "explicitly with message:", "  "+body)
					} else {
						msg = append(msg, "explicitly")
					}
				}
				f.text = strings.Join(append(msg, infoText(infos)...), "\n")
				infos = nil
				if ex != nil {
					ex.success = "handled"
				}
				p.addFailure(f)
			case "Expression":
				if ex != nil && ex.success == "false" {
					lines := append(expressionText(ex.typ, ex.original, ex.expanded, true), infoText(infos)...)
					p.addFailure(catch2Failure{sections: slices.Clone(sections), file: ex.file, line: ex.line, text: strings.Join(lines, "\n")})
				}
				if ex != nil && ex.success != "true" {
					infos = nil
				}
				ex = nil
			}
		}
		p.mu.Unlock()
	}
}

// expectedTag is the tag among a test case's tags that makes its failures
// expected, as Catch2 reads them (case-insensitively); "" when none does.
// [!shouldfail] wins: with both, Catch2 fails the test if it passes.
func expectedTag(tags string) string {
	tags = strings.ToLower(tags)
	for _, tag := range []string{"[!shouldfail]", "[!mayfail]"} {
		if strings.Contains(tags, tag) {
			return tag
		}
	}
	return ""
}

// catch2MaxText bounds the text kept of one element.
const catch2MaxText = 1 << 20

type catch2Result struct {
	success bool
	skips   int
	d       time.Duration
}

func infoText(infos []string) []string {
	if len(infos) == 0 {
		return nil
	}
	out := []string{"with message:"}
	if len(infos) > 1 {
		out[0] = "with messages:" // as Catch2's console says it
	}
	for _, i := range infos {
		out = append(out, "  "+i)
	}
	return out
}

// expressionText writes an assertion the way Catch2's console reporter
// does: REQUIRE( a == b ) with expansion: 1 == 2. The XML reporter's
// Original of a REQUIRE_FALSE or CHECK_FALSE is negated, `!(a == b)`
// (Catch2's getExpression), where the source and the console have
// `CHECK_FALSE( a == b )` (getExpressionInMacro): the macro gets the
// source's text, not a double negation; the expansion keeps the `!`, as
// the console's does.
func expressionText(typ, original, expanded string, expand bool) []string {
	if original == "" {
		return nil
	}
	lines := []string{original}
	if typ != "" {
		inMacro := original
		if strings.HasSuffix(typ, "_FALSE") && strings.HasPrefix(original, "!(") && strings.HasSuffix(original, ")") {
			inMacro = original[2 : len(original)-1]
		}
		lines[0] = typ + "( " + inMacro + " )"
	}
	if expand && expanded != "" && expanded != original {
		lines = append(lines, "with expansion:", "  "+expanded)
	}
	return lines
}

func (p *catch2Parser) addFailure(f catch2Failure) {
	switch {
	case p.cur == nil:
	case len(p.cur.failures) <= kit.LaterKept:
		p.cur.failures = append(p.cur.failures, f)
	default:
		p.cur.omitted++
	}
}

func (p *catch2Parser) output(s string) {
	if p.cur != nil {
		p.rec.Output("", p.cur.name, s)
	}
}

// finishTest records the current test; p.mu is held.
func (p *catch2Parser) finishTest(success bool, d time.Duration) {
	t := p.cur
	p.cur = nil
	if t.stopped {
		return // left running: the runner names it as what ran when the run was stopped
	}
	switch {
	case !success:
		p.rec.End("", t.name, report.TestFailed, d, p.failure(t))
	case t.expected != "" && len(t.failures) > 0:
		// Catch2 counts these "failed as expected": the test passed. Its
		// failures go to its output, as the console prints them.
		for _, f := range t.failures {
			p.rec.Output("", t.name, fmt.Sprintf("failed as expected (%s), at %s:%d:\n%s\n", t.expected, kit.ProjectPath(p.root, f.file), f.line, f.text))
		}
		if t.omitted > 0 {
			p.rec.Output("", t.name, fmt.Sprintf("failed as expected (%s) %d more times\n", t.expected, t.omitted))
		}
		p.rec.End("", t.name, report.TestPassed, d, nil)
	case t.skipped:
		p.skipped++
		p.rec.End("", t.name, report.TestSkipped, d, nil)
	default:
		p.rec.End("", t.name, report.TestPassed, d, nil)
	}
}

// failure builds a test's Failure from its first failed assertion, with
// the others after it.
func (p *catch2Parser) failure(t *catch2Test) *report.Failure {
	f := &report.Failure{Name: t.name, File: kit.ProjectPath(p.root, t.file), Line: t.line}
	var sections []string
	if len(t.failures) > 0 {
		first := t.failures[0]
		if first.file != "" {
			f.File, f.Line = kit.ProjectPath(p.root, first.file), first.line
		}
		sections = first.sections
		for i, fl := range t.failures {
			s := fl.text
			if len(fl.sections) > 0 {
				s = "in section " + strings.Join(fl.sections, " / ") + ":\n" + s
			}
			if i == 0 {
				f.Message = kit.Clip(s)
				continue
			}
			kit.AddFailure(f, kit.ProjectPath(p.root, fl.file), fl.line, s)
		}
		kit.OmitFailures(f, t.omitted)
	} else if t.expected == "[!shouldfail]" {
		// Catch2 fails a test that should fail and passes; nothing in the
		// report but its verdict says so.
		f.Message = "tagged [!shouldfail], and no assertion failed: Catch2 fails a test that should fail when it passes"
	} else {
		f.Message = "the test case failed without a failed assertion (see its output)"
	}
	f.Rerun = p.rerunFor(t.name, sections)
	return f
}

// shuffled says the run drew its order or its seed: --order rand, or a
// seed drawn at run time (--rng-seed time or random-device).
func (p *catch2Parser) shuffled() bool {
	return p.order == "rand" || p.seedAt >= 0 && p.drawnSeed()
}

// drawnSeed says the command's --rng-seed is drawn anew on each run.
func (p *catch2Parser) drawnSeed() bool {
	v := strings.TrimPrefix(p.rerun[p.seedAt], "--rng-seed=")
	return v == "time" || v == "random-device"
}

// runSeed is the seed the run used: the report's, or 0, v2's default,
// which v2 does not report.
func (p *catch2Parser) runSeed() string {
	if p.seed == "" && p.version == 2 {
		return "0"
	}
	return p.seed
}

// rerunArgs is the binary and the command's arguments; in a shuffled run,
// with the run's seed in place of one drawn at run time, or added when the
// command gave none, so that a rerun draws the same order and randomness.
func (p *catch2Parser) rerunArgs() []string {
	argv := slices.Clone(p.rerun)
	seed := p.runSeed()
	if !p.shuffled() || seed == "" {
		return argv
	}
	switch {
	case p.seedAt < 0:
		argv = append(argv, "--rng-seed", seed)
	case p.drawnSeed():
		if strings.HasPrefix(argv[p.seedAt], "--rng-seed=") {
			argv[p.seedAt] = "--rng-seed=" + seed
		} else {
			argv[p.seedAt] = seed
		}
	}
	return argv
}

// rerunFor is the command that runs one test, narrowed to a section path.
// Rerun (adapters.Reruner): a test case by its name.
func (p *catch2Parser) Rerun(_, name string) string { return p.rerunFor(name, nil) }

func (p *catch2Parser) rerunFor(name string, sections []string) string {
	argv := append(p.rerunArgs(), catch2Spec(name))
	for _, s := range sections {
		argv = append(argv, "-c", s)
	}
	return shell.Join(argv)
}

// Line takes a line of the binary's output. The report is polled and the
// pipes are not, so the two are not in step: a line read while the decoder
// waits at the report's end (as it does while a test runs for a while, or
// after the binary died) goes to the test open there. A line read while the
// decoder is behind is queued with the report's size at that moment and
// handled when the decoder gets there; the binary may have moved on to
// later tests by then, so such a line is only kept in the run's raw output,
// except a sanitizer report, which ends the binary where it stands.
func (p *catch2Parser) Line(s adapters.Stream, b []byte, _ bool) {
	line := strings.TrimRight(string(b), "\r")
	var size int64
	if st, err := os.Stat(p.tail.Path()); err == nil {
		size = st.Size()
	}
	if !p.tail.CaughtUp(size) {
		// Wake the reader and give it a moment: the report usually grew by
		// a tag or two, which the decoder takes in microseconds.
		p.tail.Kick()
		deadline := time.Now().Add(catch2CatchUp)
		for !p.tail.CaughtUp(size) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Microsecond)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.pending) > 10000 {
		p.flush(-1)
	}
	if len(p.pending) == 0 && p.tail.CaughtUp(size) {
		p.handle(s, line, false)
		return
	}
	p.pending = append(p.pending, catch2Line{s: s, text: line, at: size})
}

// catch2CatchUp bounds how long a line of output waits for the decoder to
// reach the report's end.
const catch2CatchUp = 5 * time.Millisecond

type catch2Line struct {
	s    adapters.Stream
	text string
	at   int64
}

// flush handles the queued lines that came before the report reached
// offset (all of them for -1); p.mu is held.
func (p *catch2Parser) flush(offset int64) {
	n := 0
	for _, l := range p.pending {
		if offset >= 0 && l.at >= offset {
			break
		}
		p.handle(l.s, l.text, true)
		n++
	}
	p.pending = p.pending[n:]
}

// handle attributes a line to the test running, unless it came late;
// p.mu is held.
func (p *catch2Parser) handle(s adapters.Stream, line string, late bool) {
	if s == adapters.Stderr {
		if rep, began := p.sanReader.Line(line); rep != nil {
			p.sanitizerLine(rep, began, line)
			return
		}
		if p.cur == nil && len(p.errLines) < 20 && strings.TrimSpace(line) != "" {
			p.errLines = append(p.errLines, line)
		}
	}
	if !late {
		p.output(line + "\n")
	}
}

// sanitizerReport is one report of a sanitizer on stderr, and the test
// it came from.
type sanitizerReport struct {
	*format.SanitizerReport
	test string // the test running when it began, if known yet
}

// sanitizerLine adds a line to the report it belongs to (began: the line
// starts one), and to the output of the test it came from; p.mu is held.
func (p *catch2Parser) sanitizerLine(rep *format.SanitizerReport, began bool, line string) {
	if began || p.san == nil {
		test := ""
		if p.cur != nil {
			test = p.cur.name
		}
		p.san = &sanitizerReport{SanitizerReport: rep, test: test}
		p.sans = append(p.sans, p.san)
	}
	if r := p.san; r.test != "" {
		p.rec.Output("", r.test, line+"\n")
	}
}

// location is the first frame of a sanitizer report in the project's code,
// or failing that the first outside the system, the sanitizer and Catch2.
func (p *catch2Parser) location(r *sanitizerReport) (string, int) {
	file, line := r.Location(p.root, func(file string) bool { return strings.HasPrefix(filepath.Base(file), "catch") })
	if file == "" {
		return "", 0
	}
	return kit.ProjectPath(p.root, file), line
}

// stopTail tells the report's reader that the binary is gone, and waits
// (5 s at most) for the decoder to read what is left.
func (p *catch2Parser) stopTail() {
	p.stopOnce.Do(func() {
		p.tail.Stop()
		select {
		case <-p.decoded:
		case <-time.After(5 * time.Second):
		}
	})
}

// Close stops the report's reader and removes its directory: after
// Finish, or in its place when the binary never started (the runner calls
// it either way), so that no goroutine polls for a report that will never
// come and no directory stays behind.
func (p *catch2Parser) Close() error {
	p.stopTail()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tail.CloseFile()
	return os.RemoveAll(p.dir)
}

func (p *catch2Parser) Finish(exit report.Exit) adapters.Outcome {
	p.stopTail()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.tail.CloseFile()
	p.flush(-1)
	os.RemoveAll(p.dir)

	var out adapters.Outcome
	var hints []string
	if note := kit.JoinNotes(p.note, p.stale.Wait()); note != "" {
		hints = append(hints, note)
	}
	// The test that was running when the binary died: its report ends
	// inside it.
	dying := ""
	if p.cur != nil {
		dying = p.cur.name
	}
	if dying != "" && exit.StoppedBy != "" && len(p.sans) == 0 {
		// Stopped by strobe (its timeout or stuck verdict, a cancel): the
		// test stays running, and the runner says why. A signal from
		// anyone else ends the test it hit.
		p.cur, dying = nil, ""
	}
	for _, r := range p.sans {
		if r.test == "" && r.Kind != "LeakSanitizer" {
			r.test = dying
			if r.test == "" {
				r.test = p.last
			}
			if r.test != "" {
				p.rec.Output("", r.test, strings.Join(r.Lines, "\n")+"\n")
			}
		}
	}
	// A report that stopped the binary is the crash; UBSan goes on after
	// its reports, and LeakSanitizer's come at exit, tied to no test.
	var fatalSan *sanitizerReport
	// ThreadSanitizer goes on too, and fails the run at exit (66): its
	// reports fail the tests they came from.
	var leaks, races []*sanitizerReport
	for _, r := range p.sans {
		switch {
		case r.Kind == "LeakSanitizer":
			leaks = append(leaks, r)
		case dying != "" && r.test == dying:
			fatalSan = r
		case r.Kind == "ThreadSanitizer":
			races = append(races, r)
		case r.Kind != "UndefinedBehaviorSanitizer":
			fatalSan = r
		}
	}
	for _, r := range races {
		if r.test == "" {
			continue
		}
		file, line := p.location(r)
		f := &report.Failure{Name: r.test, File: file, Line: line, Message: kit.Clip(strings.Join(r.Gist(p.root), "\n")), Rerun: p.rerunFor(r.test, nil)}
		p.rec.End("", r.test, report.TestFailed, 0, f) // a second End keeps the failure
		hints = append(hints, fmt.Sprintf("ThreadSanitizer reported in test %q: %s: fix the race, then rerun it alone: %s", r.test, r.Summary, f.Rerun))
	}
	// exited is the code of the test that called exit(), which the
	// reporter's SIGSEGV hid (exitedAlone); -1 when none did.
	exited := -1
	if dying != "" && fatalSan == nil {
		exited = p.exitedAlone(dying, exit)
	}
	if dying != "" {
		// Fail the test the binary died in, with what killed it.
		t := p.cur
		p.cur = nil
		var f *report.Failure
		if exited >= 0 {
			f = p.failure(t)
			msg := kit.DidNotFinish(fmt.Sprintf("the test binary exited (code %d)", exited), 0) +
				", before Catch2 ended the test: exit() in the test or the code it calls? " +
				fmt.Sprintf("Run alone (the rerun), it exits %d without Catch2's summary; the run's SIGSEGV came after, from Catch2's XML reporter in exit()'s static teardown, not from the test", exited)
			if len(t.failures) > 0 {
				msg += "\n" + f.Message
			}
			f.Message = kit.Clip(msg)
		} else if fatalSan != nil && fatalSan.test == dying {
			file, line := p.location(fatalSan)
			if file == "" {
				file, line = kit.ProjectPath(p.root, t.file), t.line
			}
			f = &report.Failure{Name: t.name, File: file, Line: line, Message: kit.Clip(strings.Join(fatalSan.Gist(p.root), "\n"))}
			f.Rerun = p.rerunFor(t.name, nil)
		} else {
			f = p.failure(t)
			f.Message = kit.DidNotFinish("the test binary died ("+exitText(exit)+")", 0) + "\n" + f.Message
		}
		p.rec.End("", t.name, report.TestFailed, 0, f)
	}

	switch {
	case p.fatal != nil:
		c := &report.Crash{Type: catch2SignalType(p.fatal.signal), ExitCode: exit.Code, Signal: exit.Signal, SignalName: exit.SignalName,
			CoreDump: exit.CoreDump, Indicators: []string{"catch2_fatal_error_condition"}, RunningTests: []string{p.fatal.test},
			Message: fmt.Sprintf("%s in test %q, after %s:%d", p.fatal.signal, p.fatal.test, kit.ProjectPath(p.root, p.fatal.file), p.fatal.line)}
		if fatalSan != nil {
			c.Indicators = append(c.Indicators, fatalSan.Indicator())
			c.Message += "\n" + fatalSan.Summary
		}
		out.Crash = c
		hints = append(hints, fmt.Sprintf("test %q crashed with %s after the assertion at %s:%d: rerun it alone under gdb (gdb --args %s), or rebuild with -fsanitize=address,undefined to see the bad access",
			p.fatal.test, catch2SignalName(p.fatal.signal), kit.ProjectPath(p.root, p.fatal.file), p.fatal.line, p.rerunFor(p.fatal.test, nil)))
	case fatalSan != nil:
		file, line := p.location(fatalSan)
		c := &report.Crash{Type: fatalSan.CrashType(), ExitCode: exit.Code, Signal: exit.Signal, SignalName: exit.SignalName, CoreDump: exit.CoreDump,
			Indicators: []string{fatalSan.Indicator()}, Message: fatalSan.Summary}
		if fatalSan.test != "" {
			c.RunningTests = []string{fatalSan.test}
		}
		out.Crash = c
		where := ""
		if file != "" {
			where = fmt.Sprintf(" at %s:%d", file, line)
		}
		hints = append(hints, fmt.Sprintf("%s stopped the binary in test %q%s: fix the access it reports (the test's output has the whole report), then rerun it alone: %s",
			fatalSan.Kind, fatalSan.test, where, p.rerunFor(fatalSan.test, nil)))
	case exited >= 0:
		out.Crash = &report.Crash{Type: report.CrashUnknown, ExitCode: exited, Signal: exit.Signal, SignalName: exit.SignalName, CoreDump: exit.CoreDump,
			Indicators: []string{"catch2_report_cut_short", "catch2_exit_in_test"}, RunningTests: []string{dying},
			Message: fmt.Sprintf("test %q exited the binary (code %d) before Catch2 ended it; the SIGSEGV came after, from Catch2's XML reporter in exit()'s static teardown, not from the test", dying, exited)}
		rerun := p.rerunFor(dying, nil)
		hints = append(hints, fmt.Sprintf("test %q ends the binary with exit code %d before Catch2 ends the test (exit() in the test or the code it calls?): run alone, %s exits %d without Catch2's summary, and under the XML reporter strobe reads Catch2 2.13 then dies of SIGSEGV in exit()'s static teardown. To see where it exits: gdb -batch -ex 'set breakpoint pending on' -ex 'break exit' -ex run -ex bt --args %s",
			dying, exited, rerun, exited, rerun))
	case dying != "":
		c := &report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code, Signal: exit.Signal, SignalName: exit.SignalName, CoreDump: exit.CoreDump,
			Indicators: []string{"catch2_report_cut_short"}, RunningTests: []string{dying},
			Message: fmt.Sprintf("the test binary ended (%s) inside test %q without Catch2 reporting its end", exitText(exit), dying)}
		if exit.Signaled {
			c.Type = catch2SignalType(exit.SignalName)
		}
		out.Crash = c
		hints = append(hints, fmt.Sprintf("the binary died inside test %q (exit(), abort() or a signal Catch2 could not catch): rerun it alone under gdb: gdb --args %s", dying, p.rerunFor(dying, nil)))
	}
	if out.Crash == nil && len(p.sans) > 0 {
		// Non-fatal reports (UBSan keeps going): the tests they came from
		// have them in their output; say so.
		for _, r := range p.sans {
			if r.Kind == "UndefinedBehaviorSanitizer" {
				hints = append(hints, fmt.Sprintf("%s reported in test %q: %s (the test's output has the report)", r.Kind, r.test, r.Summary))
			}
		}
	}
	for _, r := range leaks {
		hints = append(hints, fmt.Sprintf("LeakSanitizer found leaks when the binary exited (%s), which fails the run although no test failed: see the details file's stderr for the allocation stacks", r.Summary))
	}
	// A crash, or strobe's stop, ended the binary before the test cases
	// after the one it was in: Catch2 says nothing of them.
	var stoppedIn []string
	what := "crashed"
	switch {
	case out.Crash != nil:
		stoppedIn = out.Crash.RunningTests
		if exited >= 0 {
			what = "exited"
		}
	case exit.StoppedBy != "":
		for _, t := range p.rec.Tests() {
			if t.Status == report.TestRunning {
				stoppedIn = append(stoppedIn, t.Name)
			}
		}
		what = "was running when the run was stopped"
		if exit.StoppedBy == report.StoppedStuck {
			what = "hung"
		}
	}
	if len(stoppedIn) > 0 {
		if h := p.unrun(stoppedIn, what, exit.StoppedBy); h != "" {
			hints = append(hints, h)
		}
	}

	dup := format.FindCatch2Duplicate(p.errLines)
	if dup != nil && p.started == 0 && out.Crash == nil {
		// Catch2 refused to run any test: a build error, at the
		// redefinition, and no "no tests" answer.
		first, file := kit.ProjectPath(p.root, dup.First), kit.ProjectPath(p.root, dup.File)
		out.BuildFailed = true
		out.BuildErrors = []report.BuildError{{File: file, Line: dup.Line,
			Message: fmt.Sprintf("test case %q is defined again here, first at %s:%d: Catch2 refuses to run a binary with two test cases of one name, and ran none of its tests", dup.Name, first, dup.FirstLine)}}
		hints = append(hints, fmt.Sprintf("Catch2 refused to run any test: test case %q is defined twice, at %s:%d and at %s:%d (\"already defined\"): rename one of them (or drop the file that repeats it from the target), rebuild, and rerun",
			dup.Name, first, dup.FirstLine, file, dup.Line))
	}
	if !p.sawRoot && out.Crash == nil && dup == nil {
		msg := "the binary wrote no Catch2 XML report"
		if len(p.errLines) > 0 {
			msg += ": " + strings.Join(p.errLines, " ")
		}
		hints = append(hints, msg+" (is it a Catch2 test binary, and does it accept -r xml -o FILE?)")
	}
	if p.sawRoot && p.started == 0 && out.Crash == nil && dup == nil {
		out.NoTests = true
		out.Project = &report.Project{Language: "c++", BuildSystem: fmt.Sprintf("Catch2 v%d test binary", p.version)}
		bin := ""
		if len(p.rerun) > 0 {
			bin = shell.Quote(p.rerun[0])
		}
		hints = append(hints, kit.NoTestsHint{
			Test:  fmt.Sprintf("no test case is named %q: list them with %s --list-tests", p.test, bin),
			Level: fmt.Sprintf("no test case is tagged %s: tag tests [unit], [integration] or [e2e] to run them by level", catch2LevelTag(p.level)),
			All:   "the binary has no test cases (hidden tests, tagged [.], only run when named)",
		}.For(p.test, p.level))
	}
	if p.version == 3 && exit.Exited && out.Crash == nil {
		// Catch2 v3 exits 2 when no test ran and 4 when every test it ran
		// skipped (SKIP()): its word for the outcome, which the answer
		// already says, not a failure of the run.
		switch {
		case exit.Code == 2 && p.started == 0:
			out.ExitExplained = true
		case exit.Code == 4 && p.started > 0 && p.skipped == p.started:
			out.ExitExplained = true
		}
	}
	if p.sawRoot && p.shuffled() && p.runSeed() != "" {
		// The binary with the command's arguments, the seed and the
		// selection: the same order, and the same randomness.
		argv := p.rerunArgs()
		if p.spec != "" {
			argv = append(argv, p.spec)
		}
		out.Shuffle = &report.Shuffle{Seed: p.runSeed(), Command: shell.Join(argv)}
		if p.rec.Progress().Failed > 0 {
			hints = append(hints, "the reruns keep --rng-seed "+p.runSeed())
		}
	}
	out.Hint = strings.Join(hints, "; ")
	return out
}

// exitTimeout bounds the run of one test exitedAlone makes.
var exitTimeout = 10 * time.Second

// exitedAlone says whether the test the binary died in called exit(),
// and with which code; -1 when it did not, or strobe cannot tell. Catch2
// 2.13's XML reporter has std::cout write into a stream of its own while
// a test runs, which is gone when exit()'s static teardown flushes
// std::cout: a test that calls exit() (code 0 or any) kills the binary
// with SIGSEGV there, after no FatalErrorCondition (Catch2's handler
// writes one for a signal inside a test) and with the test's end never
// reported. Only then is the test run again, alone, with the console
// reporter (its rerun command, bounded by exitTimeout): a binary that
// starts Catch2's run (its "Filters:" line) and exits without Catch2's
// summary exited inside the test, and its code is the test's. A signal,
// a summary or the timeout says otherwise.
func (p *catch2Parser) exitedAlone(name string, exit report.Exit) int {
	if !exit.Signaled || kit.SignalName(exit.Signal) != "SIGSEGV" || exit.StoppedBy != "" || p.fatal != nil || len(p.rerun) == 0 {
		return -1
	}
	argv := append(p.rerunArgs(), catch2Spec(name))
	out, _, err := kit.RunTool(context.Background(), kit.Tool{Dir: p.root, Env: p.env, Timeout: exitTimeout}, argv...)
	code := 0
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ee.Exited():
		code = ee.ExitCode()
	default:
		return -1
	}
	if !catch2Filters.Match(out) || catch2Summary.Match(out) {
		return -1
	}
	return code
}

// catch2Filters is the line Catch2's console reporter begins a run with
// a test spec with; catch2Summary the lines it ends a run with (v2 and
// v3).
var (
	catch2Filters = lazyre.New(`(?m)^Filters: `)
	catch2Summary = lazyre.New(`(?m)^(All tests passed|test cases: |No tests ran)`)
)

// listTimeout bounds the listing unrun makes.
var listTimeout = 5 * time.Second

// unrun says, of a binary a crash or strobe's stop ended inside
// stoppedIn, how many of the test cases it was to run never started:
// Catch2 says nothing of them, and they are in no count. The total is the
// binary's listing under the run's selection (the command's arguments and
// the plan's spec), bounded by listTimeout; hidden tests are in neither.
// The command that runs the selection again without stoppedIn follows,
// when strobe can write it (see restCommand), for a run strobe stopped
// (by) in the words the runner finds to put the run's --env in front
// (kit.WithRest). "" when every test case started, or the listing failed.
func (p *catch2Parser) unrun(stoppedIn []string, what, by string) string {
	if len(p.rerun) == 0 {
		return ""
	}
	args := slices.Clone(p.rerun[1:])
	if p.spec != "" {
		args = append(args, p.spec)
	}
	tool := kit.Tool{Dir: p.root, Env: p.env, Timeout: listTimeout, MaxOutput: 64 << 20}
	names, err := listTests(context.Background(), tool, p.rerun[0], args)
	n := len(names) - p.started
	if err != nil || n <= 0 {
		return ""
	}
	verb := "are"
	if n == 1 {
		verb = "is"
	}
	h := fmt.Sprintf("%d of the %d test cases the binary was to run did not run and %s in no count", n, len(names), verb)
	rest := p.restCommand(stoppedIn)
	switch {
	case by != "":
		h = kit.WithRest(h, "catch2", by, rest)
	case rest != "":
		h += fmt.Sprintf("; to run the run's test cases again, less what %s: %s", what, rest)
	}
	return h
}

// restCommand runs the run's selection without the tests in without:
// Catch2 excludes a test by its name after ~, and the specs of separate
// arguments all hold (a test spec's comma is its "or", and binds looser
// than the arguments: "a,b" "~c" is a, or b but not c), so an exclusion
// is an argument of its own after the level's tag or, with none, after
// ~[.] (exclusions alone select the hidden tests too, which a run
// without a spec does not run); several tests' spec is written again
// without them. "" when the command gives specs of its own (the
// exclusion would hold for its last alternative only), when the run was
// one test (it is what stopped), or when nothing is left.
func (p *catch2Parser) restCommand(without []string) string {
	if p.ownSpecs || p.test != "" || len(p.rerun) == 0 {
		return ""
	}
	argv := p.rerunArgs()
	if len(p.tests) > 0 {
		left := slices.DeleteFunc(slices.Clone(p.tests), func(t adapters.TestRef) bool { return slices.Contains(without, t.Name) })
		if len(left) == 0 {
			return ""
		}
		return shell.Join(append(argv, multiSpec(left)))
	}
	if p.spec != "" {
		argv = append(argv, p.spec)
	} else {
		argv = append(argv, "~[.]")
	}
	for _, name := range without {
		argv = append(argv, "~"+catch2Spec(name))
	}
	return shell.Join(argv)
}

func exitText(exit report.Exit) string {
	if exit.Signaled {
		return "killed by " + exit.SignalName
	}
	return fmt.Sprintf("exit code %d", exit.Code)
}

// stopSignal says Catch2's fatal condition is the signal strobe stops a
// run with.
func stopSignal(text string) bool {
	switch catch2SignalName(text) {
	case "SIGTERM", "SIGINT":
		return true
	}
	return false
}

// catch2SignalName takes the signal's name out of Catch2's text
// ("SIGSEGV - Segmentation violation signal").
func catch2SignalName(text string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	return name
}

func catch2SignalType(text string) report.CrashType {
	return kit.CrashType(catch2SignalName(text))
}
