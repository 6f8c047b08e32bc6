// Package nextest runs Rust tests with cargo-nextest.
package nextest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// nextest runs a Rust project's tests with cargo nextest run, where the
// project uses nextest (.config/nextest.toml) or the request asks for it,
// and reads nextest's libtest-json-plus events:
//
//	NEXTEST_EXPERIMENTAL_LIBTEST_JSON=1 cargo nextest run --no-fail-fast \
//	  --message-format libtest-json-plus --status-level skip \
//	  --success-output immediate [SELECTION] [-- TEST ARGS]
//
// The events come on stdout as each test ends (nextest 0.9.66 and later;
// the format is experimental, hence the variable), with the crate, binary
// and kind of each test binary; nextest's human status lines come on
// stderr, and only they name the signal a test process died of (a
// segfaulting test is a plain "failed" event with no output). So stdout
// gives the tests, their times and their output, stderr the build errors,
// signals, timeouts and retries, and, under --success-output immediate,
// each passing test's output, whose missing "test result:" line tells a
// test that exited 0 before libtest's end. Nothing of the user's
// configuration file is changed: their profile's retries, slow-timeout
// and test groups apply as under their own cargo nextest run.
//
// nextest runs each test in a process of its own and never runs doctests;
// the answer's hint says so when a crate the run covers has documentation
// examples that plain cargo test would run (doctests.go).
type nextest struct{}

// New returns the cargo-nextest adapter.
func New() adapters.Adapter { return nextest{} }

func (nextest) Name() string { return "nextest" }

// configFile is nextest's configuration, in the workspace root.
const configFile = ".config/nextest.toml"

// jsonEnv turns on nextest's experimental libtest-json output.
const jsonEnv = "NEXTEST_EXPERIMENTAL_LIBTEST_JSON=1"

func (nextest) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if _, _, _, ok := splitNextest(req.Command); ok {
			return adapters.Detection{Confidence: 95, Hint: "the command runs cargo nextest run"}
		}
		return adapters.Detection{}
	}
	if !kit.FileExists(filepath.Join(req.ProjectRoot, "Cargo.toml")) {
		return adapters.Detection{}
	}
	if findConfig(req.ProjectRoot) != "" {
		// Above cargo's 90 for Cargo.toml: the project chose nextest.
		return adapters.Detection{Confidence: 92, Hint: configFile + " found: the project runs its tests with cargo-nextest"}
	}
	return adapters.Detection{}
}

// findConfig looks for nextest's configuration in dir and the directories
// above it that hold a Cargo.toml (the workspace root), as nextest reads it
// from the workspace root.
func findConfig(dir string) string {
	for d := range kit.Ancestors(dir) {
		if !kit.FileExists(filepath.Join(d, "Cargo.toml")) {
			break
		}
		if p := filepath.Join(d, configFile); kit.FileExists(p) {
			return p
		}
	}
	return ""
}

func (nextest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	prefix := []string{"cargo", "nextest", "run"}
	var userArgs, testArgs []string
	if len(req.Command) > 0 {
		var ok bool
		prefix, userArgs, testArgs, ok = splitNextest(req.Command)
		if !ok {
			return nil, adapters.Usagef("the nextest framework runs `cargo nextest run [ARGS] [-- TEST ARGS]`, not `%s`: pass that command with --framework generic", shell.Join(req.Command))
		}
	}
	if !installed(req.Env) {
		return nil, &adapters.UsageError{
			Msg:       "cargo-nextest is not installed",
			Framework: "nextest",
			Hint:      "install it with `cargo install cargo-nextest --locked`, or pass framework: \"cargo\" to run the tests with cargo test",
		}
	}
	root := req.ProjectRoot
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // rustc and backtraces print canonical paths
	}
	cargo := prefix[:len(prefix)-2] // cargo [+toolchain]
	if filepath.Base(cargo[0]) != "cargo" {
		cargo = []string{"cargo"}
	}
	meta := cargoMetadata(ctx, cargo, root, userArgs, req.Env)
	level, err := levelFilterFor(req, meta)
	if err != nil {
		return nil, err
	}
	filter, err := selection(req, userArgs, level)
	if err != nil {
		return nil, err
	}
	argv := slices.Clone(prefix)
	passLines := showsPasses(userArgs)
	args := cleanArgs(userArgs)
	if passLines {
		args = dropFlag(args, "--success-output")
	}
	argv = append(argv, args...)
	argv = append(argv, "--no-fail-fast", "--message-format", "libtest-json-plus")
	if !hasFlag(userArgs, "--status-level") {
		// SKIP lines tell an ignored test from a running one (see
		// humanStatus); nextest's default level shows every other status.
		argv = append(argv, "--status-level", "skip")
	}
	if passLines {
		// A passing test's output under its PASS line: libtest's "test
		// result:" line missing from it tells a test that exited 0 before
		// libtest's end (std::process::exit), which nextest passes.
		argv = append(argv, "--success-output", "immediate")
	}
	argv = append(argv, filter...)
	if len(testArgs) > 0 {
		argv = append(append(argv, "--"), testArgs...)
	}

	p := newParser(rec, root, workspaceRoot(root), append(slices.Clone(prefix), rerunFlags(userArgs)...))
	p.test, p.level = req.Test, req.Level
	p.runIgnored = runsIgnored(userArgs, testArgs)
	p.prefix, p.testArgs = prefix, testArgs
	p.restArgs, p.filters = splitFilters(userArgs)
	if level != "" {
		p.filters = []string{level} // the user's own -E is refused beside a level
	}
	p.meta = meta
	if req.Level == adapters.LevelAll && req.Test == "" && !hasFlag(userArgs, targetFlags...) {
		// cargo metadata, 20 ms: beside the run, not before it.
		p.docs = kit.Beside(func() string { return docExamples(p.meta, root, userArgs) })
		p.docCmd = shell.Join(append(append(slices.Clone(cargo), "test", "--doc"), docFlags(userArgs)...))
	}
	// The answer's command as a person types it: without libtest's JSON,
	// which nextest refuses without strobe's environment, and the status
	// level only strobe's parser needs.
	shown := slices.Concat(prefix, args, []string{"--no-fail-fast"}, filter)
	if len(testArgs) > 0 {
		shown = append(append(shown, "--"), testArgs...)
	}
	plan := &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Env: []string{jsonEnv}, Parser: p, Shown: shell.Join(shown)}
	kit.RunCargoDirect(ctx, plan, req.ProjectRoot, req.Env)
	return plan, nil
}

// cargoMetadata reads the workspace's packages (cargo metadata --no-deps,
// about 20 ms) once, when the doctest hint or a failure's declaration
// first asks: a run that needs neither does without.
func cargoMetadata(ctx context.Context, cargo []string, root string, args, env []string) func() (*kit.CargoMetadata, error) {
	var flags []string
	if m := flagValues(args, "--manifest-path"); len(m) > 0 {
		flags = []string{"--manifest-path", m[0]}
	}
	return sync.OnceValues(func() (*kit.CargoMetadata, error) { return kit.ReadCargoMetadata(ctx, cargo, root, flags, env) })
}

// installed says whether cargo would find its nextest subcommand: a
// cargo-nextest on the run's PATH, or in cargo's own bin directory.
func installed(env []string) bool {
	if _, err := shell.LookPath("cargo-nextest", env); err == nil {
		return true
	}
	home := kit.EnvValue(env, "CARGO_HOME")
	if home == "" {
		if h := kit.EnvValue(env, "HOME"); h != "" {
			home = filepath.Join(h, ".cargo")
		}
	}
	return home != "" && kit.FileExists(filepath.Join(home, "bin", "cargo-nextest"))
}

// splitNextest splits `cargo [+toolchain] nextest run ARGS [-- TEST ARGS]`
// (or `cargo-nextest nextest run`) into the words up to "run", nextest's
// arguments and the test binaries'.
func splitNextest(argv []string) (prefix, args, testArgs []string, ok bool) {
	i := 1
	switch filepath.Base(argv[0]) {
	case "cargo":
		if len(argv) > 2 && strings.HasPrefix(argv[1], "+") {
			i++
		}
	case "cargo-nextest":
	default:
		return nil, nil, nil, false
	}
	if len(argv) < i+2 || argv[i] != "nextest" || argv[i+1] != "run" && argv[i+1] != "r" {
		return nil, nil, nil, false
	}
	prefix = slices.Clone(argv[:i+2])
	rest := argv[i+2:]
	if j := slices.Index(rest, "--"); j >= 0 {
		return prefix, slices.Clone(rest[:j]), slices.Clone(rest[j+1:]), true
	}
	return prefix, slices.Clone(rest), nil, true
}

// flagName is the flag a word spells, without an "=value" part.
func flagName(w string) string {
	if strings.HasPrefix(w, "--") {
		if i := strings.IndexByte(w, '='); i >= 0 {
			return w[:i]
		}
	}
	return w
}

func hasFlag(args []string, names ...string) bool {
	for _, a := range args {
		if slices.Contains(names, flagName(a)) {
			return true
		}
	}
	return false
}

// targetFlags select test binaries (cargo's flags, which nextest takes).
var targetFlags = []string{"--lib", "--bins", "--bin", "--tests", "--test", "--examples", "--example", "--benches", "--bench", "--all-targets"}

// filterFlags are nextest's filterset flags: several are joined by "or",
// so a level or a test cannot narrow a user's own.
var filterFlags = []string{"-E", "--filterset", "--filter-expr"}

// cleanArgs drops the user's flags the plan sets itself: the message
// format the parser reads, and fail-fast, which would leave tests unrun.
func cleanArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch flagName(args[i]) {
		case "--no-fail-fast", "--fail-fast":
			continue
		case "--message-format", "--message-format-version", "--max-fail":
			if !strings.Contains(args[i], "=") {
				i++ // the value
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// showsPasses says whether nextest's status level shows a passing test's
// status line, under which its output is shown: strobe's level (skip),
// or the command's own pass, skip or all.
func showsPasses(args []string) bool {
	levels := flagValues(args, "--status-level")
	if len(levels) == 0 {
		return true
	}
	switch levels[len(levels)-1] {
	case "pass", "skip", "all":
		return true
	}
	return false
}

// dropFlag drops a flag and its value from args.
func dropFlag(args []string, name string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if flagName(args[i]) == name {
			if !strings.Contains(args[i], "=") {
				i++ // the value
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// splitFilters takes the filtersets (-E EXPR, --filterset=EXPR…) out of
// a command's arguments: nextest joins several with "or", so a command
// that narrows them must join them into one.
func splitFilters(args []string) (rest, filters []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch name := flagName(a); {
		case slices.Contains(filterFlags, name) && name != a: // --filterset=EXPR
			filters = append(filters, a[len(name)+1:])
		case slices.Contains(filterFlags, a):
			if i+1 < len(args) {
				i++
				filters = append(filters, args[i])
			}
		case strings.HasPrefix(a, "-E") && len(a) > 2: // -EEXPR
			filters = append(filters, strings.TrimPrefix(a[2:], "="))
		default:
			rest = append(rest, a)
		}
	}
	return rest, filters
}

// buildFlags are cargo's flags, alone, that decide how the tests are
// built; buildValued those that take a value (after = or as the next word).
var (
	buildFlags  = []string{"--release", "-r", "--all-features", "--no-default-features", "--locked", "--offline", "--frozen"}
	buildValued = []string{"--features", "-F", "--manifest-path", "--target", "--target-dir", "--config"}
)

// rerunFlags keeps the user's flags that decide what is built and how it
// runs (cargo's build flags, nextest's profile), so a rerun tests the same.
func rerunFlags(args []string) []string {
	return keepFlags(args, buildFlags, append([]string{"--cargo-profile", "--profile", "-P", "--config-file", "--tool-config-file"}, buildValued...))
}

// docFlags keeps the user's flags that cargo test --doc takes as the run
// took them: which packages (-p, --workspace, --exclude, the manifest) and
// how they are built (features, profile, target, lockfile), so that the
// doctests the hint names are those of the packages the run tested.
// nextest's --cargo-profile is cargo's --profile; its own --profile is not
// cargo's.
func docFlags(args []string) []string {
	out := keepFlags(args, append([]string{"--workspace", "--all"}, buildFlags...), append([]string{"-p", "--package", "--exclude", "--cargo-profile"}, buildValued...))
	for i, a := range out {
		if flagName(a) == "--cargo-profile" {
			out[i] = "--profile" + strings.TrimPrefix(a, "--cargo-profile")
		}
	}
	return out
}

// keepFlags keeps args' flags named in alone, and those named in valued
// with their value (after = or the next word), in their order.
func keepFlags(args, alone, valued []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch name := flagName(a); {
		case slices.Contains(alone, name):
			out = append(out, a)
		case slices.Contains(valued, name):
			out = append(out, a)
			if !strings.Contains(a, "=") && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		}
	}
	return out
}

// runsIgnored says the command runs #[ignore] tests: nextest's
// --run-ignored only (ignored-only) or all, or libtest's --ignored or
// --include-ignored after "--".
func runsIgnored(args, testArgs []string) bool {
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--run-ignored=")
		if !ok && a == "--run-ignored" && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok && v != "default" {
			return true
		}
	}
	return hasFlag(testArgs, "--ignored", "--include-ignored")
}

// Levels as filtersets: nextest knows each binary's kind. unit is the
// tests inside libraries and binaries, integration the tests/ targets not
// named e2e*, e2e those named e2e*.
var levelFilter = map[adapters.Level]string{
	adapters.LevelUnit:        "kind(lib) | kind(bin) | kind(proc-macro)",
	adapters.LevelIntegration: "kind(test) & !binary(/^e2e/)",
	adapters.LevelE2E:         "kind(test) & binary(/^e2e/)",
}

// levelFilterFor is the request's level's filterset, "" for the whole
// suite. nextest refuses a binary() that matches no binary ("operator
// didn't match any binary names"): without an e2e* test target among the
// packages tested (cargo metadata), integration is every test target, and
// e2e, as integration without any test target, a usage error saying what
// the level holds, as cargo's adapter says it.
func levelFilterFor(req adapters.Request, meta func() (*kit.CargoMetadata, error)) (string, error) {
	f, ok := levelFilter[req.Level]
	if !ok || req.Level == adapters.LevelUnit {
		return f, nil
	}
	m, err := meta()
	if err != nil {
		return f, nil // nextest will say what is wrong
	}
	var e2e, other bool
	for _, p := range m.Selected(req.ProjectRoot) {
		for _, t := range p.Targets {
			if slices.Contains(t.Kind, "test") && t.Tested() {
				e2e, other = e2e || strings.HasPrefix(t.Name, "e2e"), other || !strings.HasPrefix(t.Name, "e2e")
			}
		}
	}
	switch {
	case req.Level == adapters.LevelIntegration && other && !e2e:
		return "kind(test)", nil
	case req.Level == adapters.LevelIntegration && !other, req.Level == adapters.LevelE2E && !e2e:
		return "", adapters.Usagef("no %s tests in %s: for nextest, unit tests are #[test] functions inside the libraries and binaries (src/), integration tests are the files under tests/ whose names do not start with e2e, and e2e tests are tests/e2e*.rs", req.Level, req.ProjectRoot)
	}
	return f, nil
}

// selection is the filterset for the request's level (its filterset,
// level) and test, if any.
func selection(req adapters.Request, userArgs []string, level string) ([]string, error) {
	var parts []string
	if f := level; f != "" {
		if hasFlag(userArgs, targetFlags...) {
			return nil, adapters.Usagef("the command already selects test binaries (--lib, --test, ...): drop --level, or drop the target flags and let the level choose them")
		}
		parts = append(parts, f)
	}
	if req.Test != "" {
		parts = append(parts, testFilter(req.Test))
	}
	if len(parts) == 0 {
		return nil, nil
	}
	if hasFlag(userArgs, filterFlags...) {
		return nil, adapters.Usagef("the command already has a filterset (-E): nextest joins several with \"or\", so a level or test cannot narrow it; put the test or level into your -E expression, or drop it")
	}
	if len(parts) == 2 {
		return []string{"-E", "(" + parts[0] + ") & " + parts[1]}, nil
	}
	return []string{"-E", parts[0]}, nil
}

// testFilter selects one test by its exact name ("tests::adds"), or by
// nextest's full name ("ntdemo::integration$panics", binary id and test).
func testFilter(name string) string {
	if bin, test, ok := cutBinary(name); ok {
		return "binary_id(" + matcherText(bin) + ") & test(=" + matcherText(test) + ")"
	}
	return "test(=" + matcherText(name) + ")"
}

// cutBinary splits a test's full name into its binary's id and its own:
// "anyhow::test_chain$test_iter" (libtest-json's), or "anyhow::test_chain
// test_iter" (as nextest prints a test's status, and a user copies it).
func cutBinary(name string) (bin, test string, ok bool) {
	if bin, test, ok := strings.Cut(name, "$"); ok {
		return bin, test, true
	}
	if bin, test, ok := strings.Cut(name, " "); ok && printedBinary.MatchString(bin) && test != "" {
		return bin, test, true
	}
	return "", "", false
}

// printedBinary is the id of a test binary other than a library's, as
// nextest prints it before a test's name: crate::binary, crate::bin/name.
// (A library's is the crate's name alone, which a harness's test name
// with spaces could begin with: not read so.)
var printedBinary = lazyre.New(`^[A-Za-z0-9_-]+::[A-Za-z0-9_/-]+$`)

// matcherText escapes s for a filterset's matcher, which ends at an
// unescaped ")" or ",": a harness's test name may hold either ("parses
// (a, b)"), and unescaped the filterset was an error or another test.
func matcherText(s string) string {
	if !strings.ContainsAny(s, `\),`) {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if c == '\\' || c == ')' || c == ',' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// workspaceRoot is the nearest directory at or above dir whose Cargo.toml
// has a [workspace] table, else dir: rustc prints paths relative to it.
func workspaceRoot(dir string) string {
	for d := dir; ; {
		if b, err := os.ReadFile(filepath.Join(d, "Cargo.toml")); err == nil && workspaceTable(b) {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

func workspaceTable(manifest []byte) bool {
	for _, l := range bytes.Split(manifest, []byte("\n")) {
		if string(bytes.TrimSpace(l)) == "[workspace]" {
			return true
		}
	}
	return false
}
