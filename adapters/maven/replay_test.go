package maven

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/kit/jvm"
	"strobe/report"
)

// The recorded runs (testdata/record.sh): each scenario's console and the
// reports it wrote, replayed in a copy where /PROJECT is the copy's path.
var replays = []struct {
	scenario string
	level    adapters.Level
	test     string
	exit     int
}{
	{"basic", "", "", 1},
	{"single", "", "CalcTest#addsWrongly", 1},
	{"integration", adapters.LevelIntegration, "", 0},
	{"broken", "", "", 1},
	{"notests", "", "", 0},
	{"multi", "", "", 1},
	// Surefire 2.12.4 (Maven 3.8's default): no class on its closing
	// lines; a JUnit 4 Parameterized row's name has no parameter types.
	{"junit4", "", "", 1},
	// -Dtest=RowTest#notTwo under Surefire 2's JUnit 4 filter: no test
	// matched, which JUnit 4 reports as Filter's initializationError.
	{"junit4-filter", "", "RowTest#notTwo", 1},
}

func TestReplay(t *testing.T) {
	for _, tc := range replays {
		t.Run(tc.scenario, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "p")
			if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "recorded", tc.scenario))); err != nil {
				t.Fatal(err)
			}
			lines := adapterstest.ReadLines(t, filepath.Join(root, "console.txt"), adapters.Stdout)
			for i := range lines {
				lines[i].Text = strings.ReplaceAll(lines[i].Text, "/PROJECT", root)
			}
			rec := adapters.NewRecorder()
			p := newParser(rec, root, modules(root), []string{"mvn", "-B", "test"})
			p.level, p.test = tc.level, tc.test
			out := adapterstest.Replay(p, lines, report.Exit{Exited: true, Code: tc.exit})
			fix := func(s string) string { return strings.ReplaceAll(s, root, "/PROJECT") }
			adapterstest.Golden(t, "replay/"+tc.scenario, adapterstest.Normalise(rec, out, fix))
		})
	}
}

// TestReplayLive: a class's tests are recorded when its closing line
// comes, before the run ends, so progress moves a class at a time; under
// Surefire 2 too, whose closing line does not name the class (its
// "Running" line did).
func TestReplayLive(t *testing.T) {
	for _, tc := range []struct {
		scenario, last          string
		passed, failed, skipped int
	}{
		{"basic", "-- in com.example.CalcTest", 1, 2, 1},
		{"junit4", "Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed:", 1, 1, 0},
	} {
		root := filepath.Join(t.TempDir(), "p")
		if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "recorded", tc.scenario))); err != nil {
			t.Fatal(err)
		}
		rec := adapters.NewRecorder()
		p := newParser(rec, root, modules(root), []string{"mvn", "-B", "test"})
		for _, l := range adapterstest.ReadLines(t, filepath.Join(root, "console.txt"), adapters.Stdout) {
			p.Line(l.Stream, []byte(l.Text), false)
			if strings.Contains(l.Text, tc.last) {
				break
			}
		}
		got := rec.Progress()
		if got.Phase != adapters.PhaseRunning || got.Passed != tc.passed || got.Failed != tc.failed || got.Skipped != tc.skipped {
			t.Errorf("%s: progress after %q: %+v, want running with %d passed, %d failed, %d skipped",
				tc.scenario, tc.last, got, tc.passed, tc.failed, tc.skipped)
		}
	}
}

// TestStaleReports: a report an earlier run left (surefire never deletes
// them) is not this run's.
func TestStaleReports(t *testing.T) {
	root := filepath.Join(t.TempDir(), "p")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "recorded", "basic"))); err != nil {
		t.Fatal(err)
	}
	rec := adapters.NewRecorder()
	p := newParser(rec, root, []string{"."}, []string{"mvn"})
	p.snapshot()
	out := p.Finish(report.Exit{Exited: true})
	if n := len(rec.Tests()); n != 0 || !out.NoTests {
		t.Errorf("%d tests from stale reports, outcome %+v; want none and no_tests", n, out)
	}
	// The same class run again rewrites its report: that one counts.
	rec = adapters.NewRecorder()
	p = newParser(rec, root, []string{"."}, []string{"mvn"})
	p.snapshot()
	rewritten := filepath.Join(root, "target", "surefire-reports", "TEST-com.example.OtherTest.xml")
	later := time.Now().Add(time.Second)
	os.Chtimes(rewritten, later, later)
	p.Finish(report.Exit{Exited: true})
	if n := len(rec.Tests()); n != 2 {
		t.Errorf("%d tests, want OtherTest's 2 from its rewritten report", n)
	}
}

func TestJstack(t *testing.T) {
	dump, err := os.ReadFile("testdata/jstack-deadlock.txt")
	if err != nil {
		t.Fatal(err)
	}
	threads := jvm.ParseJstack(string(dump), func(class, file string) string {
		if class == "com.example.HangTest" {
			return "src/test/java/com/example/" + file
		}
		return file
	})
	adapterstest.Golden(t, "jstack-deadlock", threads)
}

// TestGoalFailed: Maven stopped before any test ran for a reason other
// than javac (an enforcer rule, a license check, a dependency it could
// not resolve): build_failed with Maven's own words, not a run that
// "reported no test results". Surefire's "No tests … were executed!"
// (a -Dtest of a given command that matched nothing) is no tests.
func TestGoalFailed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		console string
		want    string
	}{
		{"enforcer", `[INFO] --- maven-enforcer-plugin:3.6.3:enforce (enforce-maven-version) @ commons-csv ---
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.6.3:enforce (enforce-maven-version) on project commons-csv: 
[ERROR] Rule 0: org.apache.maven.enforcer.rules.version.RequireMavenVersion failed with message:
[ERROR] Detected Maven Version: 3.8.7 is not in the allowed range [3.9,).
[ERROR] -> [Help 1]
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.`,
			"Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.6.3:enforce (enforce-maven-version) on project commons-csv: Rule 0: org.apache.maven.enforcer.rules.version.RequireMavenVersion failed with message: Detected Maven Version: 3.8.7 is not in the allowed range [3.9,)."},
		{"rat", `[ERROR] Failed to execute goal org.apache.rat:apache-rat-plugin:0.16.1:check (rat-check) on project commons-csv: Too many files with unapproved license: 4 See RAT report in: /PROJECT/target/rat.txt -> [Help 1]
[ERROR] 
[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.`,
			"Failed to execute goal org.apache.rat:apache-rat-plugin:0.16.1:check (rat-check) on project commons-csv: Too many files with unapproved license: 4 See RAT report in: /PROJECT/target/rat.txt"},
		{"dependency", `[ERROR] Failed to execute goal on project hooks: Could not resolve dependencies for project com.example:hooks:jar:1.0: Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact org.junit.jupiter:junit-jupiter:jar:5.99.0 has not been downloaded from it before. -> [Help 1]`,
			"Failed to execute goal on project hooks: Could not resolve dependencies for project com.example:hooks:jar:1.0: Cannot access central (https://repo.maven.apache.org/maven2) in offline mode and the artifact org.junit.jupiter:junit-jupiter:jar:5.99.0 has not been downloaded from it before."},
		{"no tests", `[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.2:test (default-test) on project basic: No tests matching pattern "NoSuch" were executed! (Set -Dsurefire.failIfNoSpecifiedTests=false to ignore this error.) -> [Help 1]`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := adapters.NewRecorder()
			p := newParser(rec, t.TempDir(), []string{"."}, []string{"mvn", "-B", "test"})
			for _, l := range strings.Split(tc.console, "\n") {
				p.Line(adapters.Stdout, []byte(l), false)
			}
			out := p.Finish(report.Exit{Exited: true, Code: 1})
			if tc.want == "" {
				if !out.NoTests || out.BuildFailed {
					t.Errorf("outcome %+v, want no tests", out)
				}
				return
			}
			if !out.BuildFailed || len(out.BuildErrors) != 1 || out.BuildErrors[0].Message != tc.want {
				t.Errorf("outcome %+v, want build_failed: %s", out, tc.want)
			}
		})
	}
}

// TestForkDied: Surefire's fork that died (System.exit in a test, a JVM
// that crashed) is a crash while its class ran, and the fork's own exit
// code, which Surefire prints, says which: Maven's is 1 either way.
func TestForkDied(t *testing.T) {
	for _, tc := range []struct {
		code, signal int
		says         string
	}{
		{3, 0, "the forked JVM exited with code 3"},
		{134, 6, "the forked JVM was killed by SIGABRT (exit code 134)"},
	} {
		rec := adapters.NewRecorder()
		p := newParser(rec, t.TempDir(), []string{"."}, []string{"mvn", "-B", "test"})
		for _, l := range []string{
			"[INFO] Running org.json.junit.HTTPTest",
			"about to exit",
			"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.6.1:test (default-test) on project json: ",
			"[ERROR] ",
			"[ERROR] The forked VM terminated without properly saying goodbye. VM crash or System.exit called?",
			"[ERROR] Command was /bin/sh -c cd '/PROJECT' && '/usr/lib/jvm/java-17-openjdk-amd64/bin/java' '-jar' '/PROJECT/target/surefire/surefirebooter-1.jar'",
			"[ERROR] Error occurred in starting fork, check output in log",
			"[ERROR] Process Exit Code: " + strconv.Itoa(tc.code),
			"[ERROR] Crashed tests:",
			"[ERROR] org.json.junit.HTTPTest",
			"[ERROR] org.apache.maven.surefire.booter.SurefireBooterForkException: The forked VM terminated without properly saying goodbye. VM crash or System.exit called?",
			"[ERROR] Process Exit Code: " + strconv.Itoa(tc.code),
		} {
			p.Line(adapters.Stdout, []byte(l), false)
		}
		out := p.Finish(report.Exit{Exited: true, Code: 1})
		c := out.Crash
		if c == nil || out.BuildFailed || !strings.Contains(c.Message, tc.says) || c.Signal != tc.signal ||
			len(c.RunningTests) != 1 || c.RunningTests[0] != "org.json.junit.HTTPTest" {
			t.Errorf("exit code %d: outcome %+v, crash %+v; want a crash in HTTPTest that says %q", tc.code, out, c, tc.says)
		}
		// The class's rerun: Surefire names none of its tests.
		if want := "rerun that class alone: mvn -B test -Dtest=org.json.junit.HTTPTest -Dsurefire.failIfNoSpecifiedTests=false"; !strings.Contains(out.Hint, want) {
			t.Errorf("exit code %d: hint %q, want %q", tc.code, out.Hint, want)
		}
	}
}
