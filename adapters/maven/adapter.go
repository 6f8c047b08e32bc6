// Package maven runs JUnit tests (JUnit 5, JUnit 4 and whatever else the
// JUnit Platform runs) through Maven's Surefire plugin, and Failsafe's for
// the integration level.
package maven

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// mavenAdapter runs `mvn -B test` (the project's ./mvnw when it has one,
// else mvn on the client's PATH) in the project root.
//
// Maven prints a test class's results only when the class is over
// (`Tests run: …, Time elapsed: … -- in com.x.FooTest`), so the parser reads
// each class's surefire report (target/surefire-reports/TEST-<class>.xml)
// as soon as that line comes: progress moves a class at a time, and every
// test case is recorded from the report, with its failure's message and
// the file:line of the stack frame in the test class. At Finish it reads
// the reports the console did not name (a class cut short). Only reports
// written during this run count: surefire never deletes old ones, and a
// single-test run would otherwise bring back every class of an earlier run.
//
// Selection: a test is surefire's -Dtest pattern (`FooTest`,
// `FooTest#method`, `com.x.FooTest#m*`), with
// -Dsurefire.failIfNoSpecifiedTests=false so that a module of a
// multi-module build without that test does not fail the build. A
// parameterized, repeated or dynamic test's invocation
// (`FooTest#adds(int)[2]`) selects its method: Surefire selects no single
// invocation. A @Nested class is `Outer$Inner#method`. Levels:
// unit is `test` (Surefire); integration is `verify` with Surefire's tests
// left out (Failsafe's *IT classes, -Dit.test for a single one); e2e has no
// Maven convention and is refused.
//
// A given `mvn …` or `./mvnw …` command runs as given.
//
// javac's [ERROR]s are build errors (its [WARNING]s, of the same shape,
// are not), also beside the tests of the modules that compiled (mvn
// -fae); the modules the Reactor Summary says Maven SKIPPED are named in
// the hint, since their tests never ran.
type mavenAdapter struct{}

// New returns the Maven adapter.
func New() adapters.Adapter { return mavenAdapter{} }

func (mavenAdapter) Name() string { return "maven" }

const (
	confCommand = 95
	confPom     = 90
)

func (mavenAdapter) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if mavenWords(req.Command) != nil {
			return adapters.Detection{Confidence: confCommand, Hint: "the command runs Maven"}
		}
		return adapters.Detection{}
	}
	if kit.FileExists(filepath.Join(req.ProjectRoot, "pom.xml")) {
		return adapters.Detection{Confidence: confPom, Hint: "pom.xml found"}
	}
	return adapters.Detection{}
}

// isMaven says whether a program is Maven or its wrapper.
func isMaven(prog string) bool {
	switch filepath.Base(prog) {
	case "mvn", "mvnw", "mvnd", "mvn.cmd", "mvnw.cmd":
		return true
	}
	return false
}

// mavenWords is a given command's Maven command line: the command itself,
// or the script of `/bin/sh -c SCRIPT` when it is one Maven command whose
// only shell syntax is a pattern's wildcards or a '#' (-Dtest=Foo*Test,
// -Dtest=FooTest#bar put a command line through the shell); nil for
// anything else.
func mavenWords(cmd []string) []string {
	if isMaven(cmd[0]) {
		return cmd
	}
	if len(cmd) != 3 || (filepath.Base(cmd[0]) != "sh" && filepath.Base(cmd[0]) != "bash") || cmd[1] != "-c" {
		return nil
	}
	if shell.NeedsShell(patternChars.Replace(cmd[2])) {
		return nil
	}
	words, err := shell.Split(cmd[2])
	if err != nil || len(words) == 0 || !isMaven(words[0]) {
		return nil
	}
	return words
}

// patternChars are the characters of a -Dtest pattern that the shell
// would read too (a '#' only where a word starts is a comment).
var patternChars = strings.NewReplacer("*", "", "?", "", "[", "", "]", "", " #", " ;", "\t#", " ;", "#", "")

// Properties that select tests. failIfNoSpecifiedTests=false keeps a
// module (or Surefire beside Failsafe) that has none of the named tests
// from failing the build.
const (
	noFailProp   = "-Dsurefire.failIfNoSpecifiedTests=false"
	noSurefire   = "-Dtest=strobe_skip_surefire"
	noFailItProp = "-Dit.failIfNoSpecifiedTests=false"
)

func (a mavenAdapter) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if req.Level == adapters.LevelE2E {
		return nil, &adapters.UsageError{Msg: "Maven has no e2e level", Framework: "maven",
			Hint: "use level unit (Surefire's tests) or integration (Failsafe's *IT tests), or name the test"}
	}
	prog, shown, err := program(req)
	if err != nil {
		return nil, err
	}
	var argv, prefix []string
	if len(req.Command) > 0 {
		if req.Test != "" || req.Level != adapters.LevelAll || len(req.Tests) > 0 {
			return nil, adapters.Usagef("a Maven command selects its own tests: put -Dtest=… or the phase in the command, or leave --command out")
		}
		argv = slices.Clone(req.Command)
		prefix = req.Command
		if words := mavenWords(req.Command); words != nil {
			prefix = words
		}
		prefix = withoutSelection(prefix)
	} else {
		goal := "test"
		if req.Level == adapters.LevelIntegration {
			goal = "verify"
		}
		prefix = []string{shown, "-B", goal}
		argv = append([]string{prog, "-B", goal}, selection(req)...)
	}
	p := newParser(rec, req.ProjectRoot, modules(req.ProjectRoot), prefix)
	p.level, p.test = req.Level, req.Test
	p.whole = len(req.Command) == 0 && req.Test == "" && len(req.Tests) == 0
	p.snapshot()
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p}, nil
}

// program is the Maven to run: the project's wrapper, else mvn on the
// client's PATH, and how a rerun command names it.
func program(req adapters.Request) (path, shown string, err error) {
	if len(req.Command) > 0 {
		return req.Command[0], req.Command[0], nil
	}
	if w := filepath.Join(req.ProjectRoot, "mvnw"); isExecutable(w) {
		return w, "./mvnw", nil
	}
	p, err := shell.LookPath("mvn", req.Env)
	if err != nil {
		return "", "", &adapters.UsageError{Msg: "cannot run the Maven tests: mvn is not on the PATH and the project has no ./mvnw",
			Framework: "maven", Hint: "install Maven (apt-get install maven, brew install maven) or add the wrapper (mvn wrapper:wrapper)"}
	}
	return p, "mvn", nil
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// dottedMethod is a test named Class.method, as Surefire's console prints
// it: a class's simple name (a capital first) and a method's (a small one).
// A package's class (com.x.FooTest) is no such name.
var dottedMethod = lazyre.New(`^([A-Z][\w$]*)\.([a-z_][\w]*)$`)

// selection is the arguments that pick a test or a level.
func selection(req adapters.Request) []string {
	if len(req.Tests) > 0 {
		req.Test = multiSelection(req.ProjectRoot, req.Tests)
	}
	if m := dottedMethod.FindStringSubmatch(req.Test); m != nil {
		// Surefire's console names a test Class.method
		// ("LexerTest.testSurroundingSpacesAreDeleted"), where -Dtest
		// takes Class#method: that one ran nothing.
		req.Test = m[1] + "#" + m[2]
	}
	if class, method, ok := strings.Cut(req.Test, "#"); ok && classFailure(method) {
		req.Test = class
	} else if ok && !strings.HasPrefix(req.Test, "%") {
		// A parameterized, repeated or dynamic test's invocation
		// ("isOdd(int)[2]", a failure's name that a retry reruns):
		// -Dtest selects its method, with every invocation, or its class.
		if sel, whole := invokedMethod(method, func() bool { return jupiterClass(req.ProjectRoot, class) }); whole {
			req.Test = class
		} else {
			req.Test = class + "#" + sel
		}
	}
	switch {
	case req.Level == adapters.LevelIntegration && req.Test != "":
		return []string{noSurefire, noFailProp, "-Dit.test=" + req.Test, noFailItProp}
	case req.Level == adapters.LevelIntegration:
		return []string{noSurefire, noFailProp}
	case req.Test != "":
		return []string{"-Dtest=" + req.Test, noFailProp}
	}
	return nil
}

// withoutSelection drops a command's own test selection, so that a rerun
// can put its own.
func withoutSelection(cmd []string) []string {
	var out []string
	for _, w := range cmd {
		if strings.HasPrefix(w, "-Dtest=") || strings.HasPrefix(w, "-Dit.test=") {
			continue
		}
		out = append(out, w)
	}
	return out
}

// modules lists the directories of the project's Maven modules (the root
// first, then every directory below with a pom.xml), relative to the
// root: their target/ directories hold the reports.
func modules(root string) []string {
	mods := []string{"."}
	kit.WalkLimited(root, 5, func(path string, d fs.DirEntry) {
		if d.Name() != "pom.xml" {
			return
		}
		if rel, ok := kit.Rel(root, filepath.Dir(path)); ok && rel != "." {
			mods = append(mods, rel)
		}
	}, func(name string) bool {
		return name == "target" || name == "src" || name == "node_modules"
	})
	return mods
}
