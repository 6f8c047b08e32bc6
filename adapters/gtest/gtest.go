// Package gtest runs GoogleTest test binaries.
package gtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// gtest runs a GoogleTest binary with --gtest_output=json:FILE and reads
// two things:
//
//   - the console, live: `[ RUN      ]`, `[       OK ]`, `[  FAILED  ]`,
//     `[  SKIPPED ]` and `[ DISABLED ]` lines start and end tests as they
//     come, so progress is live and the stuck detector knows which test
//     runs; the `file:line: Failure` blocks between them give a test's
//     failures before the report exists;
//
//   - the JSON report, at Finish: GoogleTest writes it once, after the last
//     test, so it is never there when the binary dies; when it is, its
//     failures (file:line and the assertion text, every one of a test) win
//     over what the console gave, and it adds the tests the console does
//     not name (disabled ones in older releases).
//
//     BIN [USER ARGS] --gtest_output=json:DIR/report.json --gtest_color=no [--gtest_filter=F]
//
// F is the one test asked for (Suite.Name as GoogleTest prints it,
// parameterized Inst/Suite.Name/0 and typed Suite/0.Name included; a name
// without a dot is a whole suite), or the level's suites by their name:
// unit runs the suites whose name starts with Unit, integration with
// Integration, e2e with E2E, instantiation prefixes (Inst/UnitX) aside.
//
// Detection: with a command, the binary must hold GoogleTest's strings and
// answer --gtest_list_tests like GoogleTest within probeTimeout, in a
// process group of its own. Without one, a CMake project that links
// GoogleTest is searched for built GoogleTest binaries in its build trees:
// exactly one is run; none is a usage error naming the build command, and
// several is one that lists them.
type gtest struct{}

// New returns the gtest adapter.
func New() adapters.Adapter { return gtest{} }

func (gtest) Name() string { return "gtest" }

// probeTimeout bounds the --gtest_list_tests probe of a command.
var probeTimeout = 3 * time.Second

// ProbesCommand: Detect reads the command's program (adapters.CommandProber).
func (gtest) ProbesCommand() {}

func (gtest) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		bin, err := kit.ResolveProgram(req.ProjectRoot, req.Command[0], req.Env)
		if err != nil || !looksLikeGTest(bin) {
			return adapters.Detection{Hint: "gtest: the command is not a GoogleTest binary"}
		}
		if err := probe(bin, req.ProjectRoot, req.Env); err != nil {
			return adapters.Detection{Hint: "gtest: " + err.Error() + " (pass --framework gtest to run it as GoogleTest anyway)"}
		}
		return adapters.Detection{Confidence: 95, Hint: "the command is a GoogleTest binary"}
	}
	if kit.CMakeMentions(req.ProjectRoot, cmakeMarkers...) {
		return adapters.Detection{Confidence: 80, Hint: "CMake project linking GoogleTest"}
	}
	return adapters.Detection{}
}

// cmakeMarkers are what a CMakeLists.txt that links GoogleTest says.
var cmakeMarkers = []string{"find_package(GTest", "GTest::", "gtest_discover_tests", "gtest_add_tests", "gtest_main", "googletest"}

// looksLikeGTest checks a file for GoogleTest: a static gtest leaves its
// help text (with --gtest_list_tests) in the binary, a shared one its
// library's name.
func looksLikeGTest(path string) bool {
	return kit.LooksLikeTestBinaryAny(path, []byte("--gtest_list_tests"), []byte("libgtest"))
}

// probe runs BIN --gtest_list_tests in its own process group and checks
// that it answers like GoogleTest within probeTimeout.
func probe(bin, dir string, env []string) error {
	out, _, err := kit.RunTool(context.Background(), kit.Tool{Dir: dir, Env: env, Timeout: probeTimeout}, bin, "--gtest_list_tests")
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s did not answer --gtest_list_tests within %v", bin, probeTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return fmt.Errorf("cannot run %s: %w", bin, err)
	}
	if err != nil || !isListing(string(out)) {
		return fmt.Errorf("%s does not list its tests like GoogleTest", bin)
	}
	return nil
}

var (
	listSuite = lazyre.New(`^[A-Za-z_][\w/]*\.(\s+#.*)?$`)
	listTest  = lazyre.New(`^  [A-Za-z_][\w/]*(\s+#.*)?$`)
)

// isListing says whether out is --gtest_list_tests output: suites ending
// in a dot, each followed by its indented tests (none at all for a binary
// without tests), after gtest_main's "Running main() from" line.
func isListing(out string) bool {
	suites := 0
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		switch {
		case l == "" || strings.HasPrefix(l, "Running main() from "):
		case listSuite.MatchString(l):
			suites++
		case listTest.MatchString(l) && suites > 0:
		default:
			return false
		}
	}
	return true
}

// levelFilter is the --gtest_filter of a level: its suites by prefix, with
// or without an instantiation prefix (Inst/UnitX.Name/0).
func levelFilter(l adapters.Level) string {
	p := map[adapters.Level]string{adapters.LevelUnit: "Unit", adapters.LevelIntegration: "Integration", adapters.LevelE2E: "E2E"}[l]
	if p == "" {
		return ""
	}
	return p + "*.*:*/" + p + "*.*"
}

// testFilter is the --gtest_filter of one test (or suite). GoogleTest's
// filter has no escapes: ':' separates patterns and a leading '-' negates,
// so a name with them cannot be asked for; '*' and '?' stay wildcards.
func testFilter(name string) (string, error) {
	name = strings.TrimSpace(name)
	if strings.Contains(name, ":") || strings.HasPrefix(name, "-") {
		return "", adapters.Usagef("gtest: %q is not a test name: give Suite.Name as GoogleTest prints it (--gtest_list_tests lists them)", name)
	}
	if !strings.Contains(name, ".") {
		return name + ".*", nil // a whole suite
	}
	return name, nil
}

// userArgs splits a command's arguments into those kept and the filter it
// gives; the report, colour and listing flags are the plan's to set.
func userArgs(args []string) (kept []string, filter string) {
	for _, a := range args {
		name, value, _ := strings.Cut(a, "=")
		switch strings.Replace(name, "--gtest_", "--gtest-", 1) {
		case "--gtest-output", "--gtest-color", "--gtest-list_tests", "--gtest-list-tests", "--gtest-break_on_failure", "--help", "-h", "-?", "/?":
			continue
		case "--gtest-filter":
			filter = value
		}
		kept = append(kept, a)
	}
	return kept, filter
}

func (gtest) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	bin, args, note, err := binary(req)
	if err != nil {
		return nil, err
	}
	stale := kit.StaleCheck(req.ProjectRoot, bin)
	kept, given := userArgs(args)
	filter, err := planFilter(req, given)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "strobe-gtest-")
	if err != nil {
		return nil, fmt.Errorf("gtest: report directory: %w", err)
	}
	report := filepath.Join(dir, "report.json")
	argv := append([]string{bin}, kept...)
	argv = append(argv, "--gtest_output=json:"+report, "--gtest_color=no")
	shown := append([]string{bin}, kept...) // without the report, in a directory removed after the run
	if filter != "" {
		argv = append(argv, "--gtest_filter="+filter)
		shown = append(shown, "--gtest_filter="+filter)
	}
	rec.BeginTesting() // the binary is built already
	p := newParser(rec, req.ProjectRoot, dir, report)
	p.rerun = append([]string{bin}, kept...)
	p.test, p.level, p.note, p.stale, p.env, p.filter = req.Test, req.Level, note, stale, req.Env, filter
	if shard := shardNote(req.Env); shard != "" {
		p.note = kit.JoinNotes(p.note, shard)
		p.unshard = []string{"env", "-u", "GTEST_TOTAL_SHARDS", "-u", "GTEST_SHARD_INDEX"}
	}
	plan := &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p, Env: ubsanStacks(req.Env), Shown: shell.Join(shown)}
	if err := traced(req, plan); err != nil {
		p.Close() // its report directory
		return nil, err
	}
	return plan, nil
}

// binary is the test binary to run and its arguments: the command's, or
// the one GoogleTest binary in the project's build trees.
func binary(req adapters.Request) (bin string, args []string, note string, err error) {
	if len(req.Command) > 0 {
		b, err := kit.ResolveProgram(req.ProjectRoot, req.Command[0], req.Env)
		if err != nil {
			return "", nil, "", adapters.Usagef("gtest: cannot find %s: give the test binary's path", req.Command[0])
		}
		return b, req.Command[1:], "", nil
	}
	bins, trees := kit.FindCMakeBinaries(req.ProjectRoot, looksLikeGTest)
	switch len(bins) {
	case 1:
		return filepath.Join(req.ProjectRoot, bins[0]), nil, fmt.Sprintf("ran %s, the only GoogleTest binary in the build trees (pass --command to run another)", bins[0]), nil
	case 0:
		where := "no CMake build tree (build/, cmake-build-*/, out/)"
		if len(trees) > 0 {
			where = "no built GoogleTest binary in " + strings.Join(trees, ", ")
		}
		return "", nil, "", &adapters.UsageError{Msg: "gtest: the tests are not built: " + where, Framework: "gtest",
			Hint: fmt.Sprintf("build them with `%s`, then rerun, or pass --command with the test binary", kit.CMakeBuildCommand(req.ProjectRoot, trees))}
	}
	return "", nil, "", adapters.Usagef("gtest: several GoogleTest binaries found: %s: pass --command with the one to run (for example --command %s)",
		strings.Join(bins[:min(len(bins), 8)], ", ")+more(len(bins)-8), shell.Quote(bins[0]))
}

func more(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// Rerun (adapters.Reruner): a test by its Suite.Name.
func (p *parser) Rerun(_, name string) string { return p.rerunFor(name) }

// rerunFor is the pasteable command that runs one test alone.
func (p *parser) rerunFor(name string) string {
	return shell.Join(slices.Concat(p.unshard, p.rerun, []string{"--gtest_filter=" + name}))
}

// shardNote says the run was one shard of GoogleTest's sharding
// (GTEST_TOTAL_SHARDS, GTEST_SHARD_INDEX), "" when it was not. A test run
// alone under them falls in the first shard, so in any other it runs
// nothing: the reruns unset them.
func shardNote(env []string) string {
	total, index := kit.EnvValue(env, "GTEST_TOTAL_SHARDS"), kit.EnvValue(env, "GTEST_SHARD_INDEX")
	if total == "" || index == "" || total == "1" {
		return ""
	}
	return fmt.Sprintf("GTEST_TOTAL_SHARDS=%s and GTEST_SHARD_INDEX=%s are set: GoogleTest ran one shard of the tests, so the counts are that shard's; the reruns unset them (env -u), since a test run alone under them runs only when GTEST_SHARD_INDEX is 0", total, index)
}
