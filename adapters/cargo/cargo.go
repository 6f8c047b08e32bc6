package cargo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/adapters/kit/format"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
	"strobe/report"
)

// cargo runs Rust tests with cargo test and reads libtest's JSON events, on
// stable Rust.
//
// libtest prints JSON only with -Z unstable-options, which a stable test
// binary accepts when RUSTC_BOOTSTRAP is set in its environment at run time.
// The variable must reach the test binaries and nothing else: build scripts
// (anyhow's, among many) say rerun-if-env-changed=RUSTC_BOOTSTRAP, so giving
// it to cargo would rebuild them, and the user's next plain cargo test would
// rebuild again. A cargo runner (target.'cfg(all())'.runner) wraps only the
// test binaries: a shell script (cargoRunner) that gives each libtest binary
// RUSTC_BOOTSTRAP and the JSON arguments, so the command is
//
//	cargo test --no-fail-fast --message-format=json [SELECTION] \
//	  --config 'target.'cfg(all())'.runner=["/bin/sh","-c",'SCRIPT',"sh"]' \
//	  [-- TEST ARGS]
//
// and a plain cargo test afterwards compiles nothing. The arguments come from
// the runner, not after --, because cargo hands those to every test binary,
// and to rustdoc: the whole suite is then one cargo test with cargo's own
// target selection, which builds the examples and runs the doctests after
// the test binaries, as plain cargo test does. The doctests print libtest's
// human output, which cargo_doc.go reads: cargo hands rustdoc the runner
// too (--test-runtool), but a doctest binary ignores the arguments. Test
// binaries with their own main (harness = false) get the test arguments
// alone, as under plain cargo test; the script marks where their output
// starts and ends (custom.go).
//
// Cargo's JSON messages (artifacts, diagnostics) and libtest's events share
// stdout; cargo's "Running" lines and a test binary's exit status are on
// stderr. The parser ties the two together by order: cargo runs one test
// binary at a time, so the k-th "Running" line and the k-th suite on stdout
// are the same binary.
type cargo struct{}

// New returns the cargo adapter.
func New() adapters.Adapter { return cargo{} }

func (cargo) Name() string { return "cargo" }

func (cargo) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if _, _, _, ok := splitCargoTest(req.Command); ok {
			return adapters.Detection{Confidence: 95, Hint: "the command runs cargo test"}
		}
		return adapters.Detection{} // another command: not ours to run, whatever the project is
	}
	b, err := os.ReadFile(filepath.Join(req.ProjectRoot, "Cargo.toml"))
	if err != nil {
		return adapters.Detection{}
	}
	if kit.CargoWorkspaceTable(b) {
		return adapters.Detection{Confidence: 90, Hint: "Cargo.toml with [workspace] found: tests run for the packages plain cargo test selects here"}
	}
	if py, err := os.ReadFile(filepath.Join(req.ProjectRoot, "pyproject.toml")); err == nil && maturinBuilt.Match(py) {
		// A Python package whose extension is this crate (maturin): its
		// tests are Python's, the crate's few or none (rpds-py: 0 of
		// cargo's against pytest's 116). pytest's files or settings win.
		return adapters.Detection{Confidence: 50, Hint: "Cargo.toml of a Python package's extension (maturin) found"}
	}
	return adapters.Detection{Confidence: 90, Hint: "Cargo.toml found"}
}

// maturinBuilt matches a pyproject.toml built by maturin: its
// build-backend, or its [tool.maturin] table.
var maturinBuilt = lazyre.New(`(?m)^\s*(build-backend\s*=\s*["']maturin["']|\[tool\.maturin\])`)

// cargoRunnerKey is the setting that wraps every test binary cargo runs,
// rustdoc's doctest binaries included (not rustdoc, not build scripts); see
// cargo.
const cargoRunnerKey = `target.'cfg(all())'.runner=`

// cargoRunner is the --config value that runs the test binaries: a libtest
// binary with RUSTC_BOOTSTRAP and libtest's JSON arguments after the test
// arguments, under the words of prefix (a tracer) if any; a binary whose
// name matches one of customs (custom.go) as it is, between the markers;
// rustdoc's doctest binary, when doctests run, with the variable rustdoc
// would have given it (mergedDoctests). The binary and its arguments are
// the script's "$@".
func cargoRunner(customs, prefix []string, doctests bool) string {
	libtest := "RUSTC_BOOTSTRAP=1 exec "
	if len(prefix) > 0 {
		libtest += shell.Join(prefix) + " "
	}
	libtest += `"$@" ` + strings.Join(libtestJSON, " ")
	var cases []string
	if doctests {
		cases = append(cases, mergedDoctests)
	}
	if len(customs) > 0 {
		cases = append(cases, strings.Join(customs, "|")+") "+customScript+";;")
	}
	script := libtest
	if len(cases) > 0 {
		script = "case ${1##*/} in " + strings.Join(cases, " ") + " esac; " + libtest
	}
	return cargoRunnerKey + tomlArray([]string{"/bin/sh", "-c", script, "sh"})
}

// cargoShown is the command the answer names: argv without what only
// strobe's parser needs, the runner that gives libtest its JSON
// arguments (900 characters of shell, most of a passing run's answer
// on rust-hex) and --message-format=json: what a person types to run
// the same tests. The details file's argv keeps them.
func cargoShown(argv []string) []string {
	var out []string
	for i := 0; i < len(argv); i++ {
		switch {
		case argv[i] == "--":
			return append(out, argv[i:]...)
		case argv[i] == "--config" && i+1 < len(argv) && strings.HasPrefix(argv[i+1], cargoRunnerKey):
			i++
			continue
		case argv[i] == "--message-format=json":
			continue
		}
		out = append(out, argv[i])
	}
	return out
}

// mergedDoctests is the runner script's case for rustdoc's doctest
// binaries (rust_out): edition 2024 merges a crate's doctests into one,
// which runs each doctest in a process of its own only when
// RUSTDOC_DOCTEST_BIN_PATH names the binary. rustdoc sets it when it runs
// the binary itself, not through a runner; without it the doctests share
// one process, and one that aborts or exits ends them all. A doctest
// binary of an older edition ignores it.
const mergedDoctests = `rust_out) export RUSTDOC_DOCTEST_BIN_PATH="$1";;`

// tomlArray writes words as a TOML array: literal strings ('...') where
// they can be, which keeps the script readable in the details file's argv, else
// JSON's strings, whose escapes are TOML's too.
func tomlArray(words []string) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, w := range words {
		if i > 0 {
			b.WriteByte(',')
		}
		if strings.ContainsFunc(w, func(r rune) bool { return r == '\'' || unicode.IsControl(r) }) {
			j, _ := json.Marshal(w)
			b.Write(j)
			continue
		}
		b.WriteString("'" + w + "'")
	}
	return b.String() + "]"
}

// libtestJSON are the test-binary arguments that make libtest print JSON
// events with their durations.
var libtestJSON = []string{"-Z", "unstable-options", "--format", "json", "--report-time"}

func (cargo) DocTests() {}

func (cargo) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	prefix := []string{"cargo", "test"}
	var userArgs, userTestArgs []string
	if len(req.Command) > 0 {
		var ok bool
		prefix, userArgs, userTestArgs, ok = splitCargoTest(req.Command)
		if !ok {
			return nil, adapters.Usagef("the cargo framework runs `cargo test [ARGS] [-- TEST ARGS]`, not `%s`: pass that command with --framework generic", shell.Join(req.Command))
		}
		if hasTargetSelection(userArgs) && req.Level != adapters.LevelAll {
			return nil, adapters.Usagef("the command already selects targets (--lib, --test, --doc, ...): drop --level, or drop the target flags and let the level choose them")
		}
	}

	if kit.Above(req.ProjectRoot, "Cargo.toml") == "" {
		// cargo's own "could not find `Cargo.toml`" read as a build failure.
		return nil, &adapters.UsageError{Msg: "cargo: no Cargo.toml in or above " + req.ProjectRoot, Framework: "cargo",
			Hint: "give the crate's or the workspace's directory as the project root"}
	}
	root := req.ProjectRoot
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // cargo reports canonical paths
	}
	steps := cargoStepsFor(req, userArgs)
	// Metadata tells the levels apart, and whether the packages have a
	// library whose doctests to run. The whole suite runs without it:
	// cargo chooses the targets, doctests included.
	var meta *kit.CargoMetadata
	if req.Level != adapters.LevelAll {
		var err error
		if meta, err = kit.ReadCargoMetadata(ctx, prefix[:len(prefix)-1], root, cargoManifestFlags(userArgs), req.Env); err != nil {
			return nil, err
		}
		if steps == cargoDocOnly && !meta.HasLib(req.ProjectRoot) {
			return nil, adapters.Usagef("no doctests in %s: doctests are the examples in a library's doc comments, and no package here has a library (src/lib.rs)", req.ProjectRoot)
		}
	}
	var customs []string
	if steps != cargoDocOnly {
		customs, meta = customHarnesses(ctx, prefix, root, userArgs, req.Env, meta)
	}

	var argv []string
	var docNote string
	var planned []string // the doctests the plan listed
	testArgs := cleanLibtestArgs(userTestArgs, req.Test != "")
	switch steps {
	case cargoTestsOnly:
		sel, err := cargoTestsSelection(req, meta, userArgs)
		if err != nil {
			return nil, err
		}
		if req.Test != "" {
			testArgs = append(testArgs, "--exact", req.Test)
		}
		if len(req.Tests) > 0 {
			testArgs = append(testArgs, exactArgs(req.Tests)...)
			docNote = unrunDoctests(req.Tests)
		}
		argv = cargoTestsArgv(prefix, userArgs, sel, testArgs, customs)
	case cargoDocOnly:
		var sel []string
		sel, docNote, planned = planDoctests(ctx, req, append(slices.Clone(prefix), cleanCargoArgs(withoutTargetSelection(userArgs))...))
		argv = cargoDocArgv(prefix, userArgs, userTestArgs, sel)
	case cargoWhole:
		argv = cargoTestsArgv(prefix, userArgs, nil, testArgs, customs)
	}

	wsRoot := cargoWorkspaceRoot(root)
	if meta != nil && meta.WorkspaceRoot != "" {
		wsRoot = meta.WorkspaceRoot
	}
	p := newCargoParser(rec, root, wsRoot, append(slices.Clone(prefix), cargoRerunFlags(userArgs)...))
	p.test, p.level, p.docOnly, p.whole = req.Test, req.Level, steps == cargoDocOnly, steps == cargoWhole
	if steps == cargoTestsOnly && len(req.Tests) > 0 && !slices.ContainsFunc(req.Tests, func(t adapters.TestRef) bool { return t.Suite == "" }) {
		p.asked = map[[2]string]bool{}
		for _, t := range req.Tests {
			p.asked[[2]string{t.Suite, t.Name}] = true
		}
	}
	p.includeIgnored = hasCargoFlag(userTestArgs, "--ignored", "--include-ignored")
	p.dir, p.env, p.docNote, p.planned = req.ProjectRoot, req.Env, docNote, planned
	plan := &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p}
	plan.Shown = shell.Join(cargoShown(argv)) // a traced run's too: the command without gdb
	if err := traced(req, plan, customs); err != nil {
		return nil, err
	}
	kit.RunCargoDirect(ctx, plan, req.ProjectRoot, req.Env)
	return plan, nil
}

// cargoSteps says which of cargo's two test runners a plan uses: the test
// binaries (libtest, JSON events) and rustdoc (doctests, human output).
type cargoSteps int

const (
	cargoTestsOnly cargoSteps = iota
	cargoDocOnly
	cargoWhole // cargo's own selection: the test binaries, then the doctests
)

// cargoStepsFor chooses the steps: the whole suite is both, as plain cargo
// test runs them; the doc level, a command with --doc, a doctest's name and
// several tests that are all doctests are the doctests alone; everything
// else is test binaries only (several tests of both kinds too: the
// doctests among them do not run).
func cargoStepsFor(req adapters.Request, userArgs []string) cargoSteps {
	switch {
	case len(req.Tests) > 0 && !slices.ContainsFunc(req.Tests, func(t adapters.TestRef) bool { return !isDoctestName(t.Name) }):
		return cargoDocOnly // several doctests by name (see doctestsSelection)
	case len(req.Tests) > 0:
		return cargoTestsOnly // several tests by name: the test binaries' (see exactArgs)
	case req.Level == adapters.LevelDoc, hasCargoFlag(userArgs, "--doc"), req.Test != "" && isDoctestName(req.Test):
		return cargoDocOnly
	case req.Level == adapters.LevelAll && req.Test == "" && !hasTargetSelection(userArgs):
		return cargoWhole
	}
	return cargoTestsOnly
}

// unrunDoctests says which doctests among several tests asked for by name
// (--failed after test-binary tests and doctests failed) this run of the
// test binaries leaves out, and how to run them; "" when none is.
func unrunDoctests(tests []adapters.TestRef) string {
	var docs []string
	n := 0
	for _, t := range tests {
		if isDoctestName(t.Name) {
			if n++; len(docs) < 5 {
				docs = append(docs, "`"+t.Name+"`")
			}
		}
	}
	if n == 0 {
		return ""
	}
	if n > len(docs) {
		docs = append(docs, "…")
	}
	return fmt.Sprintf("%s asked for did not run: %s (one cargo command cannot give rustdoc and the test binaries selections of their own, so this one ran the test binaries'); run them with --level doc, or --test with the doctest's name",
		kit.Plural(n, "doctest"), strings.Join(docs, ", "))
}

// cargoTestsSelection is the target selection of the test binaries: the
// level's, unless the command selects its own.
func cargoTestsSelection(req adapters.Request, meta *kit.CargoMetadata, userArgs []string) ([]string, error) {
	if hasTargetSelection(userArgs) {
		return nil, nil
	}
	return cargoSelection(req, meta)
}

// cargoTestsArgv runs the test binaries through the runner, which gives
// libtest's the JSON arguments; testArgs go to every binary, and to rustdoc
// when the selection runs doctests.
func cargoTestsArgv(prefix, userArgs, sel, testArgs, customs []string) []string {
	args := slices.Clone(prefix)
	args = append(args, cleanCargoArgs(userArgs)...)
	args = append(args, "--no-fail-fast", "--message-format=json")
	args = append(args, sel...)
	doctests := len(sel) == 0 && !hasTargetSelection(userArgs) // cargo's own choice runs them
	args = append(args, "--config", cargoRunner(customs, nil, doctests))
	if len(testArgs) > 0 {
		args = append(append(args, "--"), testArgs...)
	}
	return args
}

// cargoDocArgv runs the doctests as plain cargo test would: no runner, no
// RUSTC_BOOTSTRAP and no JSON from libtest (rustdoc's human output is
// read instead), so nothing is built that plain cargo test would not reuse.
// sel, when set, selects doctests by words of their names (planDoctests),
// which the user's --exact would break.
func cargoDocArgv(prefix, userArgs, userTestArgs, sel []string) []string {
	args := slices.Clone(prefix)
	args = append(args, cleanCargoArgs(withoutTargetSelection(userArgs))...)
	args = append(args, "--no-fail-fast", "--message-format=json", "--doc")
	testArgs := append(cleanLibtestArgs(userTestArgs, len(sel) > 0), sel...)
	if len(testArgs) > 0 {
		args = append(append(args, "--"), testArgs...)
	}
	return args
}

// withoutTargetSelection drops target flags (and the names they take), for
// the doctest step of a user's command.
func withoutTargetSelection(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch cargoFlagName(args[i]) {
		case "--lib", "--bins", "--tests", "--examples", "--benches", "--all-targets", "--doc":
			continue
		case "--bin", "--test", "--example", "--bench":
			if !strings.Contains(args[i], "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// cargoWorkspaceRoot finds the workspace dir belongs to, as cargo does
// without a manifest flag: the nearest directory at or above dir whose
// Cargo.toml has a [workspace] table; dir itself when there is none. rustc
// prints paths relative to it.
func cargoWorkspaceRoot(dir string) string {
	for d := range kit.Ancestors(dir) {
		if kit.CargoWorkspace(d) {
			return d
		}
	}
	return dir
}

// splitCargoTest splits `cargo [+toolchain] test ARGS [-- TEST ARGS]` into
// the words up to "test", cargo's arguments and the test binaries'.
func splitCargoTest(argv []string) (prefix, cargoArgs, testArgs []string, ok bool) {
	if len(argv) < 2 || filepath.Base(argv[0]) != "cargo" {
		return nil, nil, nil, false
	}
	i := 1
	if strings.HasPrefix(argv[i], "+") && len(argv) > 2 {
		i++
	}
	if argv[i] != "test" && argv[i] != "t" {
		return nil, nil, nil, false
	}
	prefix = slices.Clone(argv[:i+1])
	rest := argv[i+1:]
	if j := slices.Index(rest, "--"); j >= 0 {
		return prefix, slices.Clone(rest[:j]), slices.Clone(rest[j+1:]), true
	}
	return prefix, slices.Clone(rest), nil, true
}

// cargoFlagName is the flag a word spells, without an "=value" part.
func cargoFlagName(w string) string {
	if strings.HasPrefix(w, "--") {
		if i := strings.IndexByte(w, '='); i >= 0 {
			return w[:i]
		}
	}
	return w
}

func hasCargoFlag(args []string, names ...string) bool {
	for _, a := range args {
		if slices.Contains(names, cargoFlagName(a)) {
			return true
		}
	}
	return false
}

func hasTargetSelection(args []string) bool {
	return hasCargoFlag(args, "--lib", "--bins", "--bin", "--tests", "--test", "--examples", "--example", "--benches", "--bench", "--all-targets", "--doc")
}

// cleanCargoArgs drops the user's flags that would break the parser: quiet
// mode hides the "Running" lines that name each suite, and the message
// format and --no-fail-fast are set by the plan.
func cleanCargoArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch cargoFlagName(args[i]) {
		case "-q", "--quiet", "--no-fail-fast":
			continue
		case "--message-format":
			if !strings.Contains(args[i], "=") {
				i++ // skip the value
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// cleanLibtestArgs drops the test-binary flags the plan sets itself: libtest
// rejects an option given twice.
func cleanLibtestArgs(args []string, dropExact bool) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch cargoFlagName(args[i]) {
		case "-q", "--quiet", "--report-time":
			continue
		case "--exact":
			if dropExact {
				continue
			}
		case "--format":
			if !strings.Contains(args[i], "=") {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// cargoManifestFlags keeps the user's --manifest-path, which cargo metadata
// must read too.
func cargoManifestFlags(args []string) []string {
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, "--manifest-path="):
			return []string{a}
		case a == "--manifest-path" && i+1 < len(args):
			return []string{a, args[i+1]}
		}
	}
	return nil
}

// cargoRerunFlags keeps the user's flags that decide what gets built (profile,
// features, target, manifest), so a rerun command tests the same build.
func cargoRerunFlags(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch cargoFlagName(a) {
		case "--release", "-r", "--all-features", "--no-default-features", "--locked", "--offline", "--frozen":
			out = append(out, a)
		case "--features", "-F", "--profile", "--target", "--manifest-path", "--target-dir", "--config":
			out = append(out, a)
			if !strings.Contains(a, "=") && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		}
	}
	return out
}

// cargoSelection is the target selection for a level. Levels map onto
// cargo's targets: unit is the tests inside the library and binaries
// (#[cfg(test)] modules), integration the files under tests/, e2e the
// files under tests/ whose names start with e2e.
func cargoSelection(req adapters.Request, meta *kit.CargoMetadata) ([]string, error) {
	if req.Level == adapters.LevelAll {
		return []string{"--tests"}, nil // lib, bins and tests/: tests by name (the whole suite has no selection)
	}
	pkgs := meta.Selected(req.ProjectRoot)
	var sel []string
	switch req.Level {
	case adapters.LevelUnit:
		var lib, bin bool
		for _, p := range pkgs {
			for _, t := range p.Targets {
				lib = lib || t.IsLib()
				bin = bin || slices.Contains(t.Kind, "bin")
			}
		}
		if lib {
			sel = append(sel, "--lib")
		}
		if bin {
			sel = append(sel, "--bins")
		}
	case adapters.LevelIntegration, adapters.LevelE2E:
		for _, p := range pkgs {
			for _, t := range p.Targets {
				if slices.Contains(t.Kind, "test") && t.Tested() && strings.HasPrefix(t.Name, "e2e") == (req.Level == adapters.LevelE2E) && !slices.Contains(sel, t.Name) {
					sel = append(sel, "--test", t.Name)
				}
			}
		}
	}
	if len(sel) == 0 {
		return nil, adapters.Usagef("no %s tests in %s: for cargo, unit tests are #[test] functions inside the library and binaries (src/), integration tests are the files under tests/ whose names do not start with e2e, and e2e tests are tests/e2e*.rs", req.Level, req.ProjectRoot)
	}
	return sel, nil
}

// cargoTarget is the target a test binary was built from.
type cargoTarget struct {
	pkg     string
	version string // the package's, for a -p that must name it (see cargoParser.spec)
	kind    string // lib, bin, test, bench or example
	name    string
	src     string // its root source file (src/lib.rs, tests/it.rs), absolute
}

func cargoTargetKind(kinds []string) string {
	if (kit.CargoTarget{Kind: kinds}).IsLib() || len(kinds) == 0 {
		return "lib"
	}
	return kinds[0]
}

// suite names a test binary, readable and unique in a workspace:
// "basic (lib)", "basic::cli (bin)", "basic::integration (test)".
func (t cargoTarget) suite() string {
	if t.kind == "lib" {
		return t.pkg + " (lib)"
	}
	return t.pkg + "::" + t.name + " (" + t.kind + ")"
}

// flags select the target on cargo's command line.
func (t cargoTarget) flags() []string {
	if t.kind == "lib" {
		return []string{"--lib"}
	}
	return []string{"--" + t.kind, t.name}
}

// cargoPackageID reads a package's name and version from its id:
// "path+file:///x/basic#0.1.0" (the name is the directory's),
// "registry+https://...#anyhow@1.0.0", or before cargo 1.77
// "basic 0.1.0 (path+file:///x/basic)".
func cargoPackageID(id string) (name, version string) {
	if i := strings.IndexByte(id, ' '); i > 0 && !strings.Contains(id[:i], "+") {
		version, _, _ = strings.Cut(id[i+1:], " ")
		return id[:i], version
	}
	hash := strings.LastIndexByte(id, '#')
	if hash < 0 {
		return id, ""
	}
	frag := id[hash+1:]
	if at := strings.IndexByte(frag, '@'); at >= 0 {
		return frag[:at], frag[at+1:]
	}
	u := id[:hash]
	if q := strings.IndexByte(u, '?'); q >= 0 {
		u = u[:q]
	}
	return u[strings.LastIndexByte(u, '/')+1:], frag
}

// spec is what -p takes to select a package: its name, or name@version
// when Cargo.lock lists the name twice.
func (p *cargoParser) spec(pkg, version string) string {
	p.ambiguousOnce.Do(func() { p.ambiguous = cargoLockDuplicates(p.wsRoot) })
	if p.ambiguous[pkg] && version != "" {
		return pkg + "@" + version
	}
	return pkg
}

// cargoLockDuplicates reads the package names that the workspace's
// Cargo.lock lists more than once. Cargo writes each [[package]] with its
// name on the next line, so a scan of the lines does without a TOML parser
// on lock files of thousands of packages.
func cargoLockDuplicates(wsRoot string) map[string]bool {
	b, err := os.ReadFile(filepath.Join(wsRoot, "Cargo.lock"))
	if err != nil {
		return nil
	}
	seen, dup := map[string]bool{}, map[string]bool{}
	var pkg bool
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "name = "); ok && pkg {
			name = strings.Trim(name, `"`)
			dup[name] = dup[name] || seen[name]
			seen[name] = true
		}
		pkg = line == "[[package]]"
	}
	for n, d := range dup {
		if !d {
			delete(dup, n)
		}
	}
	return dup
}

// cargoMessage is one JSON line on stdout: a cargo message (reason set) or a
// libtest event (type set).
type cargoMessage struct {
	Reason       string `json:"reason"`
	PackageID    string `json:"package_id"`
	ManifestPath string `json:"manifest_path"`
	Target       struct {
		Kind    []string `json:"kind"`
		Name    string   `json:"name"`
		SrcPath string   `json:"src_path"`
	} `json:"target"`
	Profile struct {
		Test bool `json:"test"`
	} `json:"profile"`
	Executable string `json:"executable"`
	Success    bool   `json:"success"`

	// The libtest event's fields; its Message is rustc's diagnostic in a
	// compiler-message.
	format.LibtestEvent
}

// decodeMessage is json.Unmarshal(line, m), but cheaper for libtest's own
// events, two a test, which format.DecodeLibtestEvent reads without
// reflection; cargo's messages and anything unusual go to encoding/json.
func decodeMessage(line []byte, m *cargoMessage) error {
	if format.DecodeLibtestEvent(line, &m.LibtestEvent) {
		return nil
	}
	return json.Unmarshal(line, m)
}

// libtestMessage is a libtest event read by hand (a cut line, an
// unescaped name) as a message.
func libtestMessage(e *format.LibtestEvent, ok bool) (*cargoMessage, bool) {
	if !ok {
		return nil, false
	}
	return &cargoMessage{LibtestEvent: *e}, true
}

type rustcDiagnostic struct {
	Message  string      `json:"message"`
	Level    string      `json:"level"`
	Rendered string      `json:"rendered"`
	Spans    []rustcSpan `json:"spans"`
}

// rustcSpan is a place in a source file a diagnostic names.
type rustcSpan struct {
	FileName    string `json:"file_name"`
	LineStart   int    `json:"line_start"`
	ColumnStart int    `json:"column_start"`
	IsPrimary   bool   `json:"is_primary"`
	Label       string `json:"label"`
	// Expansion is the macro call the span was expanded from, when the
	// span is in a macro's definition (assert_eq!'s, in core's source).
	Expansion *struct {
		Span rustcSpan `json:"span"`
	} `json:"expansion"`
}

// cargoRun is a test binary cargo started, as its stderr tells it.
type cargoRun struct {
	exe string // the executable's base name, as in target/debug/deps
	// failure is cargo's "process didn't exit successfully" line, with the
	// signal or exit status it names.
	failure    string
	signal     int
	signalName string
	out        strings.Builder // what it printed on stderr, for a custom harness's panic
	// overflowed is the thread Rust's runtime said overflowed its stack
	// (libtest names a test's thread after the test) before it aborted.
	overflowed string
}

// cargoSuite is one test binary's run, as its libtest events tell it.
type cargoSuite struct {
	name   string
	target *cargoTarget // nil when unknown
	// bound says the suite knows its binary (its "Running" line came).
	// Until then its events wait in pending, so that every test is
	// recorded under its binary's name whatever the order in which the two
	// streams arrive.
	bound   bool
	pending []cargoEvent
	tests   int     // test_count
	done    bool    // libtest reported the suite's result
	counts  [3]int  // passed, failed, skipped as recorded
	totals  *[3]int // as libtest counted them at the suite's end
	// leftOut counts the tests it ran that the run did not ask for (a
	// test of another binary's name: see cargoParser.asked), as counts.
	leftOut [3]int
	custom  *cargoCustom // a binary with its own main (custom.go), not libtest's
}

// cargoEvent is a libtest event, or (msg nil) a line the suite's tests
// printed past libtest's capture.
type cargoEvent struct {
	msg  *cargoMessage
	text string
	cut  bool
}

type cargoParser struct {
	// crashNotes say, for each test binary that died, how many of its
	// tests never started.
	crashNotes []string
	rec        *adapters.Recorder
	root       string   // the project root: reported paths and reruns are relative to it
	wsRoot     string   // rustc prints paths relative to the workspace root
	rerun      []string // cargo test and the user's build flags, for rerun commands
	// ambiguous holds the package names Cargo.lock lists more than once
	// (a dev-dependency on another version of the package itself, as
	// itoa's): -p needs their version. Read once, for the first rerun.
	ambiguous     map[string]bool
	ambiguousOnce sync.Once
	test          string // the single test asked for, if any
	level         adapters.Level
	// includeIgnored says the run ran #[ignore] tests (-- --ignored or
	// --include-ignored): the reruns of its failures must run them too,
	// or a failed ignored test would rerun as ignored.
	includeIgnored bool
	// asked are the tests a run of several asked for, by suite and name
	// (--failed): libtest runs a name in every binary that has it, and
	// those of the others are left out of the answer (leftOut counts
	// them).
	asked   map[[2]string]bool
	leftOut int

	targets   map[string]cargoTarget // test executable base name → target
	testFiles []string               // sources of test targets, for a no-tests answer

	built, buildOK bool // build-finished came, and said
	buildErrors    []report.BuildError
	cargoErrors    []report.BuildError // cargo's own errors while building (a bad manifest)
	inCargoError   bool

	testing bool // stderr is past "Finished": "Running" lines are test binaries
	runs    []*cargoRun
	orphans []*cargoRun // failures with no "Running" line before them
	suites  []*cargoSuite
	sawTest bool

	inCustom *cargoSuite // the custom-harness binary whose stdout this is

	docOnly bool                     // the plan runs cargo test --doc alone
	whole   bool                     // the plan runs the test binaries, then the doctests
	libs    map[string][]cargoTarget // library target name → the packages built with it, for the doctests
	tested  map[string]bool          // packages (specs) with a test binary: the ones cargo tests here
	libDirs []string                 // the built libraries' package directories, for doctestPackage
	// docSignals are the doctests whose programs died of a signal.
	docSignals []docSignal
	docRuns    []string // libraries named by "Doc-tests NAME", in order
	docs       []*cargoDocSuite
	// dir and env are the run's, for cargo's list of a crate's doctests
	// (docList), kept in lists by package.
	dir   string
	env   []string
	lists map[string]*docList
	// docNote says how the doctests asked for by name were selected when
	// the run may hold others (planDoctests), for the answer's hint;
	// planned are the doctests the plan listed to select them, nil when
	// it listed none.
	docNote string
	planned []string
}

func newCargoParser(rec *adapters.Recorder, root, wsRoot string, rerun []string) *cargoParser {
	if len(rerun) == 0 {
		rerun = []string{"cargo", "test"}
	}
	return &cargoParser{rec: rec, root: root, wsRoot: wsRoot, rerun: rerun, targets: map[string]cargoTarget{}, libs: map[string][]cargoTarget{}, tested: map[string]bool{}}
}

var (
	cargoANSI = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

	// "     Running unittests src/lib.rs (target/debug/deps/basic-b2e774641ec2cd6a)",
	// or with -v "     Running `env RUSTC_BOOTSTRAP=1 /abs/target/debug/deps/basic-b2e7... -Z ...`";
	// an example's binary is in target/debug/examples ("Running unittests
	// examples/demo.rs (target/debug/examples/demo-334c...)": the source's
	// directory is no binary's, hence the hash).
	cargoRunning = lazyre.New("^\\s*Running .*?(?:deps|examples)[/\\\\]([\\w.-]+-[0-9a-f]{16}(?:\\.exe)?)")
	// "  process didn't exit successfully: `...` (signal: 11, SIGSEGV: invalid memory reference)"
	// or "... (exit status: 3)".
	cargoExit = lazyre.New(`process didn't exit successfully: .*\((?:signal: (\d+), (SIG\w+)|exit status: (\d+))`)
	// stackOverflow is the Rust runtime's last word before it aborts a
	// process whose thread overflowed its stack.
	stackOverflow = lazyre.New(`^thread '(.+?)'(?: \(\d+\))? has overflowed its stack$`)
	// strobe's runner script as cargo shows it before the test binary, in
	// that line: left out, the line names the binary as plain cargo test
	// does.
	cargoRunnerShown = lazyre.New("`/bin/sh -c '[^']*' sh ")
	// Cargo's own lines once tests run; anything else on stderr is a test's.
	cargoLine = lazyre.New("^(?:\\s*(?:error|warning|note)(?:\\[\\w+\\])?:|Caused by:|\\s+`|\\s*Doc-tests |\\s*$)")
	// Cargo's progress lines, right-aligned verbs.
	cargoStatus  = lazyre.New(`^\s+(?:Compiling|Checking|Fresh|Dirty|Finished|Running|Blocking|Downloading|Downloaded|Updating|Locking|Adding|Removing|Documenting|Building|Waiting|Executable)\b`)
	cargoExeHash = lazyre.New(`-[0-9a-f]{16}$`)
	// " --> Cargo.toml:3:11" under a cargo error, then the line quoted:
	// "  |", "3 | version = 1", "  |           ^".
	cargoErrorAt = lazyre.New(`^\s*--> (.+):(\d+):(\d+)$`)
	// cargoErrorIn is where an error of cargo's is when it names a file
	// alone (the manifest of a [[test]] whose file is missing).
	cargoErrorIn = lazyre.New(`^\s*--> (\S+)$`)
	// cargoCouldNot is cargo's count of the errors before it: no error of
	// its own.
	cargoCouldNot = lazyre.New(`^error: could not compile (?:` + "`[^`]*`" + ` )?due to \d+ previous (?:target resolution )?errors?`)
	cargoSnippet  = lazyre.New(`^\s*\d*\s*\|`)
)

func (p *cargoParser) Line(s adapters.Stream, line []byte, cut bool) {
	if s == adapters.Stderr {
		if bytes.IndexByte(line, 0x1b) >= 0 {
			line = cargoANSI.ReplaceAll(line, nil)
		}
		p.stderr(string(line))
		return
	}
	if p.inCustom != nil {
		p.customLine(string(line))
		return
	}
	if bytes.HasSuffix(line, []byte(customStart)) {
		if pre := line[:len(line)-len(customStart)]; len(pre) > 0 {
			p.output(string(pre))
		}
		p.customBegin()
		return
	}
	if p.docMayStart() && (len(line) == 0 || line[0] != '{' || p.currentDoc() != nil) && p.docLine(string(line)) {
		return
	}
	if i := bytes.Index(line, format.LibtestStart); i > 0 {
		p.output(string(line[:i]))
		line = line[i:]
	}
	if len(line) == 0 || line[0] != '{' {
		p.output(string(line))
		return
	}
	m := new(cargoMessage)
	if err := decodeMessage(line, m); err != nil {
		if m, ok := libtestMessage(format.LenientLibtestEvent(line)); ok {
			p.event(m, cut)
			return
		}
		if cut {
			if m, ok := libtestMessage(format.RecoverLibtestEvent(line)); ok {
				p.event(m, true)
				return
			}
		}
		p.output(string(line))
		return
	}
	if m.Type == "test" && strings.ContainsFunc(m.Name, unicode.IsControl) {
		// "src\tests\basic.rs" unescaped is valid JSON with a tab and a
		// backspace in it; no test name holds control characters.
		if lm, ok := libtestMessage(format.LenientLibtestEvent(line)); ok {
			m = lm
		}
	}
	switch {
	case m.Reason != "":
		p.cargoMessage(m)
	case m.Type == "suite" || m.Type == "test":
		p.event(m, false)
	case m.Type == "":
		p.output(string(line)) // JSON a test printed (a log line)
	}
	// Other libtest types (bench, future ones) carry no test results.
}

// CutLine is Line for a line too long to keep whole, as when a failed test
// printed hundreds of megabytes: libtest hands them over in one JSON line
// whose head names the test and whose end holds the panic message.
func (p *cargoParser) CutLine(s adapters.Stream, head, end []byte) {
	m, ok := libtestMessage(format.RecoverLibtestEvent(head))
	if s == adapters.Stderr || !ok || p.inCustom != nil {
		p.Line(s, head, true)
		return
	}
	m.Stdout = format.LibtestOutputEnd(end)
	p.event(m, true)
}

func (p *cargoParser) cargoMessage(m *cargoMessage) {
	switch m.Reason {
	case "compiler-artifact":
		p.building()
		t := cargoTarget{kind: cargoTargetKind(m.Target.Kind), name: m.Target.Name, src: m.Target.SrcPath}
		t.pkg, t.version = cargoPackageID(m.PackageID)
		if t.kind == "lib" && !m.Profile.Test && !slices.Contains(p.libs[m.Target.Name], t) {
			p.libs[m.Target.Name] = append(p.libs[m.Target.Name], t)
		}
		if dir := filepath.Dir(m.ManifestPath); t.kind == "lib" && m.ManifestPath != "" && !slices.Contains(p.libDirs, dir) {
			p.libDirs = append(p.libDirs, dir)
		}
		if !m.Profile.Test || m.Executable == "" {
			return
		}
		p.tested[t.pkg+"@"+t.version] = true
		p.targets[filepath.Base(m.Executable)] = t
		if f := p.relPath(m.Target.SrcPath); t.kind == "test" && !slices.Contains(p.testFiles, f) {
			p.testFiles = append(p.testFiles, f)
		}
	case "compiler-message":
		p.building()
		p.diagnostic(m.Message)
	case "build-finished":
		// The doctests' testing begins with rustdoc's "running" line,
		// after it compiled them.
		second := p.built
		p.buildOK = m.Success && (p.buildOK || !second)
		p.built = true
		if m.Success && !second && !p.docOnly {
			p.rec.BeginTesting()
		}
	}
}

// building notes cargo building again after tests ran. The stuck
// detector leaves builds alone.
func (p *cargoParser) building() {
	if p.built {
		p.rec.BeginBuilding()
	}
}

func (p *cargoParser) diagnostic(raw json.RawMessage) {
	var d rustcDiagnostic
	if json.Unmarshal(raw, &d) != nil || !strings.HasPrefix(d.Level, "error") {
		return
	}
	if len(d.Spans) == 0 && strings.HasPrefix(d.Message, "aborting due to") {
		return // rustc's count of the errors it already gave
	}
	e := report.BuildError{Message: d.Message}
	if e.Message == "" {
		e.Message = cargoFirstLines(d.Rendered, 5)
	}
	for _, s := range d.Spans {
		if s.IsPrimary {
			if s.Label != "" {
				e.Message += ": " + s.Label
			}
			// An error in a macro defined outside the workspace (std's
			// assert_eq!, a dependency's) is placed where the project
			// calls it, as rustc shows it: the definition is not the
			// user's, and often not on this machine (/rustc/HASH/library/…).
			for n := 0; s.Expansion != nil && !p.inProject(s.FileName) && n < maxExpansions; n++ {
				s = s.Expansion.Span
			}
			e.File, e.Line, e.Column = p.relPath(s.FileName), s.LineStart, s.ColumnStart
			break
		}
	}
	// A library that fails to build fails its lib and its test target
	// alike: report each error once.
	if !slices.Contains(p.buildErrors, e) {
		p.buildErrors = append(p.buildErrors, e)
	}
}

func (p *cargoParser) stderr(line string) {
	if m := cargoExit.FindStringSubmatch(line); m != nil {
		r := &cargoRun{}
		if len(p.runs) > 0 {
			// Cargo runs one binary at a time: this is the last one started.
			r = p.runs[len(p.runs)-1]
		} else {
			p.orphans = append(p.orphans, r) // quiet cargo: no "Running" lines
		}
		r.failure = cargoRunnerShown.ReplaceAllString(strings.TrimSpace(line), "`")
		r.signal, _ = strconv.Atoi(m[1])
		r.signalName = m[2]
		return
	}
	if m := cargoDocTest.FindStringSubmatch(line); m != nil {
		if len(p.docRuns) >= p.docCrates() {
			p.rec.BeginBuilding() // rustdoc compiles the doctests before its "running" line
		}
		p.docCrate(m[1])
		return
	}
	if !p.testing {
		if strings.HasPrefix(strings.TrimSpace(line), "Finished ") {
			p.testing = true
			return
		}
		p.buildLine(line)
		return
	}
	if m := cargoRunning.FindStringSubmatch(line); m != nil {
		p.runs = append(p.runs, &cargoRun{exe: m[1]})
		if k := len(p.runs) - 1; k < len(p.suites) {
			p.bind(p.suites[k], m[1], k)
		}
		return
	}
	// Cargo's progress lines come again when it builds the doctests.
	if !cargoLine.MatchString(line) && !cargoStatus.MatchString(line) {
		n := len(p.runs)
		if m := stackOverflow.FindStringSubmatch(line); m != nil && n > 0 {
			p.runs[n-1].overflowed = m[1]
		}
		if n > 0 && p.runs[n-1].out.Len() < adapters.PerTestOutput {
			p.runs[n-1].out.WriteString(line + "\n")
		}
		// The line is the running binary's: a libtest test's output only
		// while that binary's suite is the one on stdout.
		if n > 0 && n == len(p.suites) && p.suites[n-1].custom == nil {
			p.output(line)
		}
	}
}

// buildLine keeps cargo's own errors from the build phase (a bad
// manifest, a missing dependency), with the lines that explain them:
// "Caused by:" and its indented details, and where the error is.
func (p *cargoParser) buildLine(line string) {
	if cargoCouldNot.MatchString(line) && len(p.cargoErrors) > 0 {
		p.inCargoError = false
		return
	}
	if strings.HasPrefix(line, "error: ") {
		p.cargoErrors = append(p.cargoErrors, report.BuildError{Message: strings.TrimPrefix(line, "error: ")})
		p.inCargoError = true
		return
	}
	if !p.inCargoError {
		return
	}
	e := &p.cargoErrors[len(p.cargoErrors)-1]
	switch {
	case cargoErrorAt.MatchString(line):
		if m := cargoErrorAt.FindStringSubmatch(line); e.File == "" {
			// Cargo prints it relative to where it runs, the project root.
			e.File = m[1]
			e.Line, _ = strconv.Atoi(m[2])
			e.Column, _ = strconv.Atoi(m[3])
		}
	case cargoErrorIn.MatchString(line):
		if file := cargoErrorIn.FindStringSubmatch(line)[1]; e.File == "" {
			e.File = kit.ProjectPath(p.dir, file)
		}
	case cargoSnippet.MatchString(line):
		// the manifest's line, shown again
	case line == "Caused by:" || strings.HasPrefix(line, " ") && !cargoStatus.MatchString(line):
		if len(e.Message) < kit.MaxMessage {
			e.Message += "\n" + line
		}
	case line == "":
	case strings.HasPrefix(line, "warning: ") || cargoStatus.MatchString(line):
		p.inCargoError = false
	default:
		// The error's other lines: "location searched: crates.io index",
		// "required by package `x v0.1.0 (/p)`", the offline reminder.
		if len(e.Message) < kit.MaxMessage {
			e.Message += "\n" + line
		}
	}
}

// docMayStart says whether a "running N tests" line on stdout is rustdoc's:
// cargo runs the doctests after every test binary, and a libtest binary
// prints nothing but JSON outside its suite (a custom one's lines never
// come here).
func (p *cargoParser) docMayStart() bool {
	if p.docOnly {
		return true
	}
	s := p.current()
	return p.built && (s == nil || s.done || p.exited(len(p.suites)-1))
}

// exited says whether cargo said on stderr that suite k's binary ended
// (exited or died) before libtest ended the suite: it prints nothing
// more, and when it was the last, the doctests come next. Cargo's line
// comes well before them: it builds the doctests in between.
func (p *cargoParser) exited(k int) bool {
	return k < len(p.runs) && p.runs[k].failure != ""
}

// current is the suite whose events stdout carries now.
func (p *cargoParser) current() *cargoSuite {
	if len(p.suites) == 0 {
		return nil
	}
	return p.suites[len(p.suites)-1]
}

func (p *cargoParser) event(m *cargoMessage, cut bool) {
	if m.Type == "suite" && (m.Event == "ok" || m.Event == "failed") {
		if s := p.current(); s != nil {
			s.done = true // in stdout's order, bound or not: docMayStart asks
		}
	}
	if m.Type == "suite" && m.Event == "started" {
		p.rec.BeginTesting()
		s := &cargoSuite{tests: m.TestCount}
		p.suites = append(p.suites, s)
		if k := len(p.suites) - 1; k < len(p.runs) {
			p.bind(s, p.runs[k].exe, k)
		}
		return
	}
	if s := p.current(); s != nil {
		p.dispatch(s, cargoEvent{msg: m, cut: cut})
	}
}

// output is a line a test printed where libtest did not capture it.
func (p *cargoParser) output(text string) {
	if s := p.current(); s != nil && !s.done {
		p.dispatch(s, cargoEvent{text: text})
	}
}

func (p *cargoParser) dispatch(s *cargoSuite, e cargoEvent) {
	if !s.bound {
		s.pending = append(s.pending, e)
		return
	}
	p.apply(s, e)
}

// bind names suite k after its binary and replays what it held back.
func (p *cargoParser) bind(s *cargoSuite, exe string, k int) {
	if t, ok := p.targets[exe]; ok {
		s.target = &t
		s.name = t.suite()
	} else if exe != "" {
		s.name = cargoExeHash.ReplaceAllString(exe, "")
	} else {
		s.name = fmt.Sprintf("test binary %d", k+1)
	}
	s.bound = true
	p.customStart(s)
	for _, e := range s.pending {
		p.apply(s, e)
	}
	s.pending = nil
}

func (p *cargoParser) apply(s *cargoSuite, e cargoEvent) {
	m := e.msg
	if m == nil {
		// Parallel tests print over each other: only a lone running test
		// surely owns the line.
		if running := p.rec.Running(s.name); len(running) == 1 {
			p.rec.Output(s.name, running[0], e.text+"\n")
		}
		return
	}
	if m.Type == "suite" {
		if m.Event == "ok" || m.Event == "failed" {
			s.done = true
			s.totals = &[3]int{m.Passed, m.Failed, m.Ignored}
		}
		return
	}
	if m.Name == "" {
		return // not libtest's: its test events always name the test
	}
	if p.asked != nil && !p.asked[[2]string{s.name, m.Name}] {
		// Another binary's test of that name: cargo hands every filter
		// to every binary, and test_eq of test_version ran beside the
		// test_eq of test_identifier that failed.
		if i := resultIndex(m.Event); i >= 0 {
			s.leftOut[i]++
			p.leftOut++
		}
		return
	}
	switch m.Event {
	case "started":
		p.sawTest = true
		p.rec.Start(s.name, m.Name)
		return
	case "ok", "failed", "ignored":
	default:
		return // "timeout" only warns that a test runs over 60 s
	}
	p.sawTest = true
	out := m.Stdout + m.Stderr
	if out != "" {
		p.rec.Output(s.name, m.Name, out)
	}
	d := m.Duration()
	s.counts[resultIndex(m.Event)]++
	switch m.Event {
	case "ok":
		p.rec.End(s.name, m.Name, report.TestPassed, d, nil)
	case "ignored":
		p.rec.End(s.name, m.Name, report.TestSkipped, d, nil)
	case "failed":
		p.rec.End(s.name, m.Name, report.TestFailed, d, p.failure(s, m, out, e.cut))
	}
}

// resultIndex is a test result event's place in a suite's counts
// (passed, failed, ignored), -1 for another event.
func resultIndex(event string) int {
	return slices.Index([]string{"ok", "failed", "ignored"}, event)
}

func (p *cargoParser) failure(s *cargoSuite, m *cargoMessage, out string, cut bool) *report.Failure {
	f := &report.Failure{Name: m.Name, Rerun: p.rerunFor(s, m.Name)}
	f.File, f.Line, f.Message = p.panicIn(out)
	var msg string
	if json.Unmarshal(m.Message, &msg) == nil && msg != "" && f.Message != "" {
		// libtest says why a panic failed the test: a #[should_panic]
		// whose expected text the panic lacks ("panic did not contain
		// expected string"). The panic still says where.
		f.Message = kit.Clip(msg)
	}
	if cut && f.Message == "" {
		f.Message = "the test failed, but its output was too large to read whole and its end holds no panic message: rerun it alone with -- --nocapture to see it"
		return f
	}
	if f.Message == "" {
		// No panic in the output: libtest's own message ("test did not
		// panic as expected at src/lib.rs:9:8"), or else the output's end
		// (a test returning Err prints "Error: ...").
		if msg != "" {
			var read string
			f.File, f.Line, read = p.panicIn(msg)
			if _, attr, ok := strings.Cut(read, "\n"); ok {
				msg += "\n" + attr // the #[should_panic(expected = …)] it wanted
			}
			f.Message = kit.Clip(msg)
		} else {
			f.Message = kit.ClipTail(strings.TrimSpace(out))
			if kit.RustReturnedErr(out) && p.declare(s, f) {
				kit.AppendMessage(f, "\n", kit.RustErrNote)
			}
		}
	}
	f.SuggestedTraces = p.traces(out, m.Name)
	return f
}

// declare places a failure whose output says nowhere (a test that
// returned Err, one that called exit) at its test's declaration, read
// from its test binary's root source (cargo's src_path); false when the
// test is not found there.
func (p *cargoParser) declare(s *cargoSuite, f *report.Failure) bool {
	if f.File != "" || s.target == nil {
		return false
	}
	file, line := kit.RustTestDecl(s.target.src, f.Name)
	if file == "" {
		return false
	}
	f.File, f.Line = p.relPath(file), line
	return true
}

// panicIn finds the panic that failed a test in its output: where,
// relative to the project, and its message without the backtrace,
// clipped. It is the first, but for proptest's and insta's, which
// kit.ReadRustFailure reads.
func (p *cargoParser) panicIn(out string) (file string, line int, msg string) {
	f := kit.ReadRustFailure(out, p.wsRoot, p.relPath)
	return p.relPath(f.File), f.Line, kit.Clip(f.Message)
}

// traces names the project's functions on the failing stack (see
// format.RustTraces).
func (p *cargoParser) traces(out, test string) []string {
	return format.RustTraces(out, test, p.inProject)
}

// inProject says whether a backtrace location is the project's code:
// relative to the test's package, or under the workspace (not /rustc/...,
// not ~/.cargo/registry).
func (p *cargoParser) inProject(file string) bool {
	if !filepath.IsAbs(file) {
		return true
	}
	return kit.Within(p.wsRoot, file)
}

// maxExpansions bounds the macro calls followed out of a diagnostic's span.
const maxExpansions = 32

// relPath turns a path rustc printed (relative to the workspace root) into
// one relative to the project root; paths outside the workspace stay as
// they are.
func (p *cargoParser) relPath(file string) string {
	if file == "" {
		return ""
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(p.wsRoot, abs)
	}
	if kit.Within(p.wsRoot, abs) {
		if rel, err := filepath.Rel(p.root, abs); err == nil {
			return rel
		}
	}
	return file
}

// Rerun (adapters.Reruner): a test of a libtest binary, by its suite's
// name; "" for another (a doctest, a binary with its own main).
func (p *cargoParser) Rerun(suite, name string) string {
	for _, s := range p.suites {
		if s.name == suite && s.custom == nil {
			return p.rerunFor(s, name)
		}
	}
	return ""
}

func (p *cargoParser) rerunFor(s *cargoSuite, name string) string {
	argv := slices.Clone(p.rerun)
	if s.target != nil {
		argv = append(argv, "-p", p.spec(s.target.pkg, s.target.version))
		argv = append(argv, s.target.flags()...)
	}
	argv = append(argv, "--")
	if p.includeIgnored {
		argv = append(argv, "--include-ignored")
	}
	return shell.Join(append(argv, "--exact", name))
}

func (p *cargoParser) Finish(exit report.Exit) adapters.Outcome {
	for k, s := range p.suites {
		if !s.bound { // its "Running" line never came (cargo -q in a config)
			exe := ""
			if k < len(p.runs) {
				exe = p.runs[k].exe
			}
			p.bind(s, exe, k)
		}
	}
	for k, s := range p.suites {
		if s.custom != nil {
			var run *cargoRun
			if k < len(p.runs) {
				run = p.runs[k]
			}
			p.customFinish(s, run)
		}
	}
	for _, d := range p.docs {
		if d.crate < 0 { // cut short before its first doctest ended
			p.docDecide(d, false)
		}
		if !d.bound { // its "Doc-tests" line never came
			p.docBind(d, fmt.Sprintf("doctests %d", d.crate+1))
		}
		if !d.done { // cut short: keep the failures read so far
			p.docFinish(d)
		}
	}
	p.exactDocReruns()
	p.cargoErrors = slices.Compact(p.cargoErrors) // both steps report a bad manifest
	var out adapters.Outcome
	if p.built && !p.buildOK || !p.built && len(p.suites) == 0 && len(p.cargoErrors) > 0 {
		out.BuildFailed = true
		out.BuildErrors = p.buildErrors
		if len(out.BuildErrors) == 0 {
			for _, e := range p.cargoErrors {
				e.Message = kit.Clip(strings.TrimSpace(e.Message))
				out.BuildErrors = append(out.BuildErrors, e)
			}
			if !p.built {
				out.Hint = "cargo stopped before compiling anything: the error is its own, of the manifest or of the dependencies (one it could not find or fetch), not of the code"
			}
		}
		return out
	}
	out.Crash = p.crash(exit)
	if len(p.crashNotes) > 0 {
		out.Hint = strings.Join(p.crashNotes, "; ")
	}
	p.checkTotals(&out)
	if exit.StoppedBy == report.StoppedStuck || exit.StoppedBy == report.StoppedTimeout {
		if h := p.notRun(exit.StoppedBy); h != "" {
			out.Hint = strings.TrimPrefix(out.Hint+"; "+h, "; ")
		}
	}
	// A suite that ran proves the build, when the stream has no cargo
	// messages (libtest output recorded alone).
	if out.Crash == nil && p.noTests() && (p.built || len(p.suites) > 0) {
		out.NoTests = true
		files := slices.Clone(p.testFiles)
		slices.Sort(files)
		out.Project = &report.Project{Language: "rust", BuildSystem: "cargo", TestFiles: files}
		out.Hint = p.noTestsHint()
	}
	out.Hint = kit.JoinNotes(out.Hint, p.docNote)
	if p.leftOut > 0 {
		out.Hint = kit.JoinNotes(out.Hint, fmt.Sprintf("%s of the same names in other test binaries ran too (libtest takes a name in every binary), and %s left out of the answer",
			kit.Plural(p.leftOut, "test"), map[bool]string{true: "is", false: "are"}[p.leftOut == 1]))
	}
	return out
}

// unstarted is how many of a suite's tests libtest announced and never
// started, running being how many are still running.
func (s *cargoSuite) unstarted(running int) int {
	return s.tests - s.counts[0] - s.counts[1] - s.counts[2] - s.leftOut[0] - s.leftOut[1] - s.leftOut[2] - running
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// notRun says what a run strobe stopped (stuck, past its timeout) left
// unrun: the tests of the stopped binary that never started (libtest
// announced how many it would run), and cargo's later test binaries and
// doctests, which it starts one after another; and, for a run of the
// whole suite, how to run the rest without the tests that hung (a level's
// target selection is not in p.rerun). "" when nothing was left.
func (p *cargoParser) notRun(by string) string {
	var s *cargoSuite
	for _, x := range p.suites {
		if !x.done && x.custom == nil {
			s = x
		}
	}
	if s == nil {
		return ""
	}
	running := p.rec.Running(s.name)
	var parts []string
	if left := s.unstarted(len(running)); left > 0 {
		parts = append(parts, fmt.Sprintf("%d more %s of %s never started", left, plural(left, "test"), s.name))
	}
	switch {
	case p.whole:
		parts = append(parts, "any test binary after it and the doctests did not run")
	case !p.docOnly:
		parts = append(parts, "any test binary after it did not run")
	}
	if len(parts) == 0 {
		return ""
	}
	h := "cargo test was stopped at " + kit.StoppedAt(by) + ": " + strings.Join(parts, ", and ")
	if p.test == "" && (p.level == "" || p.level == adapters.LevelAll) && len(running) > 0 {
		// cargo stops at the first test binary that fails, unless told
		// not to: the rest is every binary's.
		argv := slices.Clone(p.rerun)
		if !slices.Contains(argv, "--no-fail-fast") {
			argv = append(argv, "--no-fail-fast")
		}
		argv = append(argv, "--")
		if p.includeIgnored {
			argv = append(argv, "--include-ignored")
		}
		for _, name := range running {
			argv = append(argv, "--skip", name)
		}
		h += "; to run the rest without " + kit.StoppedWhat(by) + ": " + shell.Join(argv)
	}
	return h
}

// checkTotals compares each suite's totals, as libtest or rustdoc counted
// them, with the tests recorded: a line that could not be read at all
// loses its test. The totals then win in the summary, and the answer says
// that some tests are missing from the list.
func (p *cargoParser) checkTotals(out *adapters.Outcome) {
	var sum, recorded [3]int
	add := func(counts [3]int, totals *[3]int) {
		t := counts
		if totals != nil {
			t = *totals
		}
		for i := range sum {
			sum[i] += t[i]
			recorded[i] += counts[i]
		}
	}
	for _, s := range p.suites {
		totals := s.totals
		if totals != nil && s.leftOut != [3]int{} {
			t := *totals
			for i := range t {
				t[i] -= s.leftOut[i]
			}
			totals = &t
		}
		add(s.counts, totals)
	}
	for _, d := range p.docs {
		add(d.counts, d.totals)
	}
	if sum == recorded {
		return
	}
	unread := (sum[0] + sum[1] + sum[2]) - (recorded[0] + recorded[1] + recorded[2])
	out.Summary = &report.Summary{Passed: sum[0], Failed: sum[1], Skipped: sum[2]}
	out.Unread = unread
	out.Indicators = append(out.Indicators, "unreadable_test_events")
	out.Hint = fmt.Sprintf("the test binaries' own totals count %d passed, %d failed and %d ignored, but %d passed, %d failed and %d ignored could be read from their output (lines that are not valid JSON): the summary gives the totals; the list of tests and failures misses the others; rerun with -- --format pretty to see them",
		sum[0], sum[1], sum[2], recorded[0], recorded[1], recorded[2])
}

// noTests says every test binary ran and found no test.
func (p *cargoParser) noTests() bool {
	for _, s := range p.suites {
		if s.tests > 0 {
			return false
		}
	}
	for _, d := range p.docs {
		if d.tests > 0 {
			return false
		}
	}
	return !p.sawTest
}

func (p *cargoParser) noTestsHint() string {
	return kit.NoTestsHint{
		Test:  fmt.Sprintf("no test is named exactly %q: give the path libtest prints, without the crate name (for example tests::parses_empty_input)", p.test),
		Level: fmt.Sprintf("the %s test targets have no #[test] functions", p.level),
		All:   "no #[test] functions or doctests found; add one under src/ (#[cfg(test)] mod tests) or tests/",
	}.For(p.test, p.level)
}

// crash reads the test binaries that died: killed by a signal, exited
// with an unexpected status before their suite finished, or vanished
// without a word mid-suite while cargo itself exited normally. The first
// one names the crash; later ones add their suspects and their line.
func (p *cargoParser) crash(exit report.Exit) *report.Crash {
	var c *report.Crash
	add := func(n *report.Crash) {
		if c == nil {
			c = n
			return
		}
		c.RunningTests = append(c.RunningTests, n.RunningTests...)
		c.Message += "\n" + n.Message
	}
	runs := append(slices.Clone(p.runs), p.orphans...)
	for k, r := range runs {
		var s *cargoSuite
		if k < len(p.runs) && k < len(p.suites) {
			s = p.suites[k]
		}
		var running []string
		switch {
		case s != nil && s.custom != nil && s.custom.results == nil:
			running = []string{s.customName()}
		case s != nil:
			running = p.rec.Running(s.name)
		}
		died := ""
		switch {
		case r.signal > 0:
			add(&report.Crash{Type: kit.CrashType(r.signalName), Signal: r.signal, SignalName: r.signalName,
				ExitCode: exit.Code, Indicators: []string{"test_binary_signaled"}, RunningTests: running, Message: r.failure})
			died = "the test binary died of " + r.signalName
		case r.failure != "" && s != nil && !s.done:
			add(&report.Crash{Type: report.CrashUnknown, ExitCode: exit.Code,
				Indicators: []string{"test_binary_exited"}, RunningTests: running, Message: r.failure})
			died = "the test binary exited"
		case r.failure == "" && s != nil && !s.done && exit.Exited:
			// Silent unless a test was running: that one is named, and
			// fails below, so the answer does not send anyone hunting for
			// a missing library.
			add(&report.Crash{Type: report.CrashUnknown, SilentFailure: len(running) == 0, Indicators: []string{"test_binary_exited_early"},
				RunningTests: running, Message: fmt.Sprintf("test binary %s ended before its tests finished, and cargo saw no error", s.name)})
			died = "the test binary exited"
		}
		switch {
		case died == "" || s == nil || exit.StoppedBy != "":
		case s.custom == nil:
			// Its tests that had not started are in no count (as under
			// plain cargo test, which says nothing of them): say so, or
			// a crash with everything else passing reads as all run.
			if left := s.unstarted(len(running)); left > 0 {
				p.crashNotes = append(p.crashNotes, fmt.Sprintf("%d more %s of %s never started before its binary died, and %s in no count: rerun %s",
					left, plural(left, "test"), s.name, map[bool]string{true: "is", false: "are"}[left == 1], p.customRerun(s)))
			}
			p.diedWhileRunning(s, running, died, r.overflowed)
		default:
			p.customDied(s, died)
		}
	}
	// The doctests ran last.
	for _, d := range p.docSignals {
		msg := fmt.Sprintf("the doctest %s died of %s (signal %d)", d.test, d.name, d.signal)
		typ := kit.CrashType(d.name)
		if d.name == "" {
			msg, typ = "the doctest "+d.test+" was ended by a signal (rustdoc does not say which)", report.CrashUnknown
		}
		add(&report.Crash{Type: typ, Signal: d.signal, SignalName: d.name, ExitCode: exit.Code,
			Indicators: []string{"doctest_signaled"}, RunningTests: []string{d.test}, Message: msg})
	}
	return c
}

// diedWhileRunning fails the tests a crashed test binary was running, as
// go test does: each ran and did not pass, and each gets its rerun. (A run
// strobe stopped is the stuck or timed-out answer's, not a failure.) When
// the runtime named the thread that overflowed its stack, that test did
// it, and the others only ran beside it. Each is at its declaration.
func (p *cargoParser) diedWhileRunning(s *cargoSuite, running []string, died, overflowed string) {
	culprit := slices.Contains(running, overflowed)
	for _, name := range running {
		msg := kit.DidNotFinish(died, len(running)-1)
		switch {
		case culprit && name == overflowed:
			msg = "stack overflow: thread '" + name + "' overflowed its stack, and " + died
		case culprit:
			msg = kit.DidNotFinish(died, 0) + ": " + overflowed + " overflowed its stack"
		case len(running) == 1 && strings.HasSuffix(died, "exited"):
			msg += " (std::process::exit in the test or the code it calls?)"
		}
		s.counts[1]++
		f := &report.Failure{Name: name, Message: msg, Rerun: p.rerunFor(s, name)}
		p.declare(s, f) // the output says nowhere
		p.rec.End(s.name, name, report.TestFailed, 0, f)
	}
}

func cargoFirstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	return kit.Clip(strings.Join(lines[:min(n, len(lines))], "\n"))
}
