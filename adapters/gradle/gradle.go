// Package gradle runs JVM tests (JUnit 5, JUnit 4, and whatever else a
// Gradle Test task runs) through Gradle: the project's ./gradlew, else
// gradle on the PATH.
package gradle

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/shell"
)

// gradleAdapter runs `./gradlew test --console=plain --continue` in the
// project root.
//
// Gradle's plain console names each task as it runs (`> Task :app:test`)
// and, with the Test task's default testLogging, prints only the tests
// that fail (`FooTest > bar() FAILED` and the exception's type and
// file:line) and a closing count (`4 tests completed, 1 failed`); a
// passing test prints nothing. The results come from the JUnit XML
// reports Gradle writes when a Test task ends
// (<module>/build/test-results/<task>/TEST-<class>.xml): the parser reads
// a test task's reports when the console moves past that task, so
// progress moves a test task at a time, and every test case is recorded
// with its assertion message and the file:line of the stack frame in the
// test class. A failure the console printed that no report holds (the
// test JVM died before Gradle wrote them) is recorded from the console.
// Only the reports of test tasks the console named are read: a task that
// never ran (a compile error before it) leaves an earlier run's reports
// in place.
//
// Selection: a test is Gradle's --tests filter (`com.x.FooTest`,
// `FooTest.bar`, `*Integration*`). Levels: unit is the `test` task;
// integration is the `integrationTest` task, by the convention of Gradle's
// JVM test suite plugin and of most builds that define one, when the build
// scripts name it; e2e has no Gradle convention and is refused.
//
// A given `gradle …` or `./gradlew …` command runs as given.
type gradleAdapter struct{}

// New returns the Gradle adapter.
func New() adapters.Adapter { return gradleAdapter{} }

func (gradleAdapter) Name() string { return "gradle" }

const (
	confCommand = 95
	confBuild   = 90
)

// buildFiles mark a Gradle build, the wrapper first.
var buildFiles = []string{"gradlew", "build.gradle.kts", "build.gradle", "settings.gradle.kts", "settings.gradle"}

func (gradleAdapter) Detect(req adapters.Request) adapters.Detection {
	if len(req.Command) > 0 {
		if isGradle(req.Command[0]) {
			return adapters.Detection{Confidence: confCommand, Hint: "the command runs Gradle"}
		}
		return adapters.Detection{}
	}
	for _, f := range buildFiles {
		if kit.FileExists(filepath.Join(req.ProjectRoot, f)) {
			return adapters.Detection{Confidence: confBuild, Hint: f + " found"}
		}
	}
	return adapters.Detection{}
}

// isGradle says whether a program is Gradle or its wrapper.
func isGradle(prog string) bool {
	switch filepath.Base(prog) {
	case "gradle", "gradlew", "gradle.bat", "gradlew.bat":
		return true
	}
	return false
}

// Arguments every planned run gets: the plain console (no progress bar
// redrawing lines, task headers on their own lines) and --continue, so
// that one module's failed tests do not keep the next module's from
// running.
var runFlags = []string{"--console=plain", "--continue"}

func (a gradleAdapter) Plan(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if req.Level == adapters.LevelE2E {
		return nil, &adapters.UsageError{Msg: "Gradle has no e2e level", Framework: "gradle",
			Hint: "use level unit (the test task) or integration (an integrationTest task), or name the test"}
	}
	prog, shown, err := program(req)
	if err != nil {
		return nil, err
	}
	var argv, prefix []string
	task := ""
	if len(req.Command) > 0 {
		if req.Test != "" || req.Level != adapters.LevelAll {
			return nil, adapters.Usagef("a Gradle command selects its own tests: put the task and --tests … in the command, or leave --command out")
		}
		argv = slices.Clone(req.Command)
		prefix = withoutSelection(req.Command)
	} else {
		task = "test"
		if req.Level == adapters.LevelIntegration {
			if !definesTask(req.ProjectRoot, "integrationTest") {
				return nil, &adapters.UsageError{Msg: "the Gradle build defines no integrationTest task", Framework: "gradle",
					Hint: "strobe runs level integration as the integrationTest task (Gradle's jvm-test-suite convention): define it, or run level unit"}
			}
			task = "integrationTest"
		}
		prefix = append([]string{shown, task}, runFlags...)
		argv = append(append([]string{prog, task}, runFlags...), selection(req)...)
	}
	p := newParser(rec, req.ProjectRoot, prefix, task)
	p.level, p.test = req.Level, req.Test
	p.snapshot()
	return &adapters.Plan{Argv: argv, Dir: req.ProjectRoot, Parser: p}, nil
}

// program is the Gradle to run: the project's wrapper, else gradle on the
// client's PATH, and how a rerun command names it.
func program(req adapters.Request) (path, shown string, err error) {
	if len(req.Command) > 0 {
		return req.Command[0], req.Command[0], nil
	}
	if w := filepath.Join(req.ProjectRoot, "gradlew"); isExecutable(w) {
		return w, "./gradlew", nil
	}
	p, err := shell.LookPath("gradle", req.Env)
	if err != nil {
		return "", "", &adapters.UsageError{Msg: "cannot run the Gradle tests: gradle is not on the PATH and the project has no ./gradlew",
			Framework: "gradle", Hint: "add the wrapper (gradle wrapper, then commit gradlew and gradle/wrapper/) or install Gradle (sdk install gradle, brew install gradle)"}
	}
	return p, "gradle", nil
}

func isExecutable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// selection is the arguments that pick a test.
func selection(req adapters.Request) []string {
	if req.Test != "" {
		return []string{"--tests", filter(req.Test)}
	}
	return nil
}

// filter is a --tests pattern for a test named as the adapter names them
// (a failure's name, which retries select by): `FooTest#bar()` is
// `FooTest.bar`, a class name starting with a capital being matched by
// its simple name (Gradle 4.7 on); a parameterised case (`FooTest#[1] 1,
// 2`, `FooTest#bar[0]`) is its class, which no filter can narrow. Any
// other name is Gradle's own pattern, passed as it is.
func filter(test string) string {
	class, method, ok := strings.Cut(test, "#")
	if !ok {
		return test
	}
	if i := strings.IndexByte(method, '('); i >= 0 {
		method = method[:i]
	}
	if method == "" || strings.ContainsAny(method, "[]") || classFailure(method) {
		return class
	}
	return class + "." + method
}

// classFailure says whether a test name is Gradle's for a class's own
// failure (JUnit 5's @BeforeAll or @AfterAll that threw, JUnit 4's
// @BeforeClass): classMethod, or initializationError before any test ran
// and executionError after. No method has that name: a filter naming it
// matches nothing, and the class is what runs it again.
func classFailure(method string) bool {
	switch method {
	case "classMethod", "initializationError", "executionError":
		return true
	}
	return false
}

// withoutSelection drops a command's own --tests filters, so that a rerun
// can put its own.
func withoutSelection(cmd []string) []string {
	var out []string
	for i := 0; i < len(cmd); i++ {
		switch w := cmd[i]; {
		case w == "--tests":
			i++
		case strings.HasPrefix(w, "--tests="):
		default:
			out = append(out, w)
		}
	}
	return out
}

// definesTask says whether a build script of the project names task: a
// text search, since asking Gradle (`gradle tasks`) costs a daemon start
// and a configuration of the whole build.
func definesTask(root, task string) bool {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(task) + `\b`)
	found := false
	kit.WalkLimited(root, 4, func(path string, d fs.DirEntry) {
		name := d.Name()
		if found || !strings.HasSuffix(name, ".gradle") && !strings.HasSuffix(name, ".gradle.kts") {
			return
		}
		if b, err := os.ReadFile(path); err == nil && word.Match(b) {
			found = true
		}
	}, skipDir)
	return found
}

// skipDir: directories that hold no build script of the project's.
func skipDir(name string) bool {
	switch name {
	case "build", "src", ".gradle", "node_modules", ".git":
		return true
	}
	return false
}
