package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/all"
	"strobe/adapters/kit/python"
	"strobe/internal/shell"
	"strobe/internal/testutil"
	"strobe/report"
)

const (
	// overheadRounds is how many times each command runs, alternating.
	overheadRounds = 7
	// quickRounds replaces it in BenchmarkOverhead when the raw command
	// takes less than quickRaw: a 60 to 100 ms run varies by ±10 ms from
	// round to round on a 2-core machine, more than the few milliseconds
	// the target leaves, and 21 rounds of it cost seconds. A 600 ms run
	// (go -count=1, 500 tests) varied from 465 to 646 ms in 7 rounds, and
	// gotestsum came out cheaper than the command it runs: 21 rounds of
	// it cost a minute.
	quickRounds = 21
	quickRaw    = time.Second
	// overheadTarget bounds strobe's wall time over the raw command's; it
	// must also stay below the peer's (gotestsum, cargo-nextest) ratio.
	overheadTarget = 1.05
	// printTarget bounds it for a test that prints a million lines, each
	// an event strobe reads.
	printTarget = 1.1
)

// variant is one command of an overhead comparison.
type variant struct {
	name   string
	argv   []string
	env    []string
	strobe bool // a strobe run: read its JSON response
	peer   bool // another tool that gives structured results: its ratio is the one to beat
}

// BenchmarkOverhead measures what `strobe test DIR --json` costs over the
// command a user would type, on warm builds, as the ratio of the median wall
// times of the two run alternately (and the median of the ratios of each
// round's pair). Each case also times the commands that tell where a
// difference comes from.
//
// cargo: a generated crate of 2,000 passing tests (20 modules of 100).
// "raw" is plain `cargo test` as a user types it, its output to /dev/null.
// The crate says doctest = false: plain cargo test would otherwise also run
// rustdoc for the doctests, which strobe's --tests leaves out, and strobe
// would look faster than it is. "raw-json" is strobe's own command line run
// by hand (the adapter's Plan: --message-format=json --tests, the runner
// config, libtest's JSON with --report-time), which separates the cost of
// the different command from strobe's own; "metadata" is the cargo
// metadata the adapter runs before starting.
//
// Every case also times "strobe-noop", strobe running `true` with the
// generic adapter (its fixed cost: start-up, spawn, the sweep of /proc for
// leftover processes, the details file), and reports "parse", the adapter's
// parser alone over the output of strobe's command, timed in process.
// These are for reading the difference; only raw and strobe make the ratio.
// On a 2-core machine strobe's parsing competes with the tests for CPU.
//
// go: a generated module of 500 passing tests in five packages. strobe's go
// adapter runs `go test -json ./...`, without -count=1, so on a warm run it
// gets go's cached results just as a user's `go test ./...` does: the
// "go-cached" case compares those two, like with like. (-json runs the test
// binaries with -test.v=test2json, so the two commands have cache entries
// of their own; the warm-up fills both. STROBE_RUN_ID, new in every run,
// is not part of the key: tests do not read it.) To compare runs
// that really execute the tests, "go-uncached" gives strobe the command
// `go test -count=1 ./...` (--command; strobe adds -json) and compares it
// with `go test -count=1 ./...`, plus `go test -count=1 -json ./...` by hand.
// "go-print" does the same on a module whose one test prints a million
// lines. It is one package, so strobe runs `go test -v=test2json` there
// and converts the output itself (raw-json is that command); in go-500's
// five packages it keeps -json. No GOFLAGS are set.
//
// pytest: a generated project of 100 passing tests in five files, without
// pytest's configuration, so that detection goes by the test files and
// must know that pytest is installed. "raw" is `python3 -m pytest -q`;
// "direct" is the same with the interpreter a pyenv shim stands for, which
// strobe runs instead of the shim (the same as raw where python3 is none);
// "probe" is the question strobe asked Python before every run until the
// files answered it (see python.HasModule).
//
// The peer, another tool that gives structured results for the same work,
// runs in the same rotation: gotestsum (--format pkgname, the go test
// command after --) for go, cargo-nextest for cargo when it is installed,
// pytest's own --junitxml report for pytest.
// strobe's ratio must be at most the target and below the peer's.
func BenchmarkOverhead(b *testing.B) {
	b.Run("cargo", func(b *testing.B) {
		testutil.RequireTool(b, "cargo")
		dir := cargoCrate(b, 20, 100)
		bin := strobeBin(b)
		req := adapters.Request{ProjectRoot: dir, Level: adapters.LevelAll}
		plan := planFor(b, "cargo", req)
		vs := []variant{
			{name: "raw", argv: []string{"cargo", "test"}},
			{name: "strobe", argv: []string{bin, "test", dir, "--no-daemon", "--json"}, strobe: true},
			{name: "raw-json", argv: plan.Argv, env: plan.Env},
			{name: "metadata", argv: []string{"cargo", "metadata", "--no-deps", "--format-version", "1"}},
			noop(bin, dir),
		}
		if nextestInstalled() {
			vs = append(vs, variant{name: "nextest", argv: []string{"cargo", "nextest", "run"}, peer: true})
		}
		overhead(b, dir, 2000, overheadTarget, "cargo", req, vs)
	})
	b.Run("go-cached", func(b *testing.B) {
		testutil.RequireTool(b, "go")
		dir := goModule(b, 5, 100)
		bin := strobeBin(b)
		req := adapters.Request{ProjectRoot: dir, Level: adapters.LevelAll}
		plan := planFor(b, "go", req)
		overhead(b, dir, 500, overheadTarget, "go", req, []variant{
			{name: "raw", argv: []string{"go", "test", "./..."}},
			{name: "strobe", argv: []string{bin, "test", dir, "--no-daemon", "--json"}, strobe: true},
			{name: "gotestsum", argv: []string{gotestsumBin(b), "--format", "pkgname", "--", "./..."}, peer: true},
			{name: "raw-json", argv: plan.Argv, env: plan.Env},
			noop(bin, dir),
		})
	})
	b.Run("go-uncached", func(b *testing.B) {
		testutil.RequireTool(b, "go")
		dir := goModule(b, 5, 100)
		goUncached(b, dir, 500, overheadTarget)
	})
	b.Run("go-print", func(b *testing.B) {
		testutil.RequireTool(b, "go")
		goUncached(b, goPrinter(b, printLines), 1, printTarget)
	})
	b.Run("pytest", func(b *testing.B) {
		testutil.RequireTool(b, "python3")
		dir := pytestProject(b, 5, 20)
		bin := strobeBin(b)
		req := adapters.Request{ProjectRoot: dir, Level: adapters.LevelAll}
		// strobe runs the interpreter a pyenv shim stands for, not the
		// shim (python.Interpreter.Direct): "direct" is raw's command
		// with that interpreter, the same as raw where python3 is no shim.
		in, err := python.FindInterpreter(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		in, inEnv := in.Direct(dir, nil)
		overhead(b, dir, 100, overheadTarget, "pytest", req, []variant{
			{name: "raw", argv: []string{"python3", "-m", "pytest", "-q"}},
			{name: "strobe", argv: []string{bin, "test", dir, "--no-daemon", "--json"}, strobe: true},
			{name: "junitxml", argv: []string{"python3", "-m", "pytest", "-q", "--junitxml=" + filepath.Join(b.TempDir(), "report.xml")}, peer: true},
			{name: "direct", argv: []string{in.Path, "-m", "pytest", "-q"}, env: inEnv},
			{name: "probe", argv: []string{"python3", "-c", "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('pytest') else 3)"}},
			noop(bin, dir),
		})
	})
}

// printLines is how many lines go-print's test prints.
const printLines = 1_000_000

// goUncached compares runs that really execute the tests: strobe given the
// command `go test -count=1 ./...` (--command; strobe adds -json), the
// command itself, gotestsum running it, and `go test -count=1 -json ./...`
// by hand.
func goUncached(b *testing.B, dir string, tests int, target float64) {
	bin := strobeBin(b)
	cmd := "go test -count=1 ./..."
	req := adapters.Request{ProjectRoot: dir, Level: adapters.LevelAll, Command: strings.Fields(cmd)}
	plan := planFor(b, "go", req)
	overhead(b, dir, tests, target, "go", req, []variant{
		{name: "raw", argv: strings.Fields(cmd)},
		{name: "strobe", argv: []string{bin, "test", dir, "--no-daemon", "--json", "--command", cmd}, strobe: true},
		{name: "gotestsum", argv: []string{gotestsumBin(b), "--format", "pkgname", "--", "-count=1", "./..."}, peer: true},
		{name: "raw-json", argv: plan.Argv, env: plan.Env},
		noop(bin, dir),
	})
}

// noop is strobe running `true` with the generic adapter: its fixed cost
// (start, spawn, the sweep for leftover processes, the details file).
func noop(bin, dir string) variant {
	return variant{name: "strobe-noop", argv: []string{bin, "test", dir, "--no-daemon", "--json", "--framework", "generic", "--command", "true"}}
}

// planFor is the command strobe runs for req, from the adapter.
func planFor(b *testing.B, framework string, req adapters.Request) *adapters.Plan {
	b.Helper()
	a, err := all.Lookup(framework)
	if err != nil {
		b.Fatal(err)
	}
	plan, err := a.Plan(context.Background(), req, adapters.NewRecorder())
	if err != nil {
		b.Fatal(err)
	}
	return plan
}

// parseCost runs strobe's command for req once, keeping its output, and
// times the adapter's parser over it in process (median of five; Plan is
// outside the timer). The streams are fed stderr first: their interleaving
// is lost, which changes nothing the timing depends on.
func parseCost(b *testing.B, framework, dir string, req adapters.Request) time.Duration {
	b.Helper()
	plan := planFor(b, framework, req)
	cmd := exec.Command(plan.Argv[0], plan.Argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), plan.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		b.Fatal(err)
	}
	exit := report.Exit{Exited: true, Code: cmd.ProcessState.ExitCode()}
	var lines []line
	for _, l := range bytes.Split(stderr.Bytes(), []byte("\n")) {
		lines = append(lines, line{adapters.Stderr, l})
	}
	for _, l := range bytes.Split(stdout.Bytes(), []byte("\n")) {
		lines = append(lines, line{adapters.Stdout, l})
	}
	var ds []time.Duration
	for range 5 {
		p := planFor(b, framework, req)
		start := time.Now()
		for _, l := range lines {
			p.Parser.Line(l.s, l.b, false)
		}
		p.Parser.Finish(exit)
		ds = append(ds, time.Since(start))
	}
	return median(ds)
}

// checkPassed stops the benchmark unless the variant's run passed: the
// raw command exited 0, strobe answered passed with every test.
func checkPassed(b *testing.B, v variant, r result, tests int) {
	b.Helper()
	if !v.strobe {
		if r.exitCode != 0 {
			b.Fatalf("%s (%s) exited %d:\n%s", v.name, shell.Join(v.argv), r.exitCode, tail(r.stderr, 2000))
		}
		return
	}
	var resp report.Response
	if err := json.Unmarshal(r.stdout, &resp); err != nil {
		b.Fatalf("strobe's response: %v\n%s\n%s", err, tail(r.stdout, 2000), tail(r.stderr, 2000))
	}
	if resp.Status != report.Passed || resp.Summary == nil || resp.Summary.Passed != tests {
		b.Fatalf("strobe answered %s (exit %d), want %d tests passed:\n%s", resp.Status, r.exitCode, tests, tail(r.stdout, 2000))
	}
}

// overhead warms the build, then runs the variants overheadRounds times
// (quickRounds when the raw command is quick), rotating which goes first
// in each round, and reports strobe's ratio to "raw" (variants[0] and
// variants[1]) with the others as a breakdown.
func overhead(b *testing.B, dir string, tests int, target float64, framework string, req adapters.Request, vs []variant) {
	warm := false // the build is done: nothing may compile any more
	run := func(v variant) (time.Duration, time.Duration) {
		r, err := timed(dir, v.env, v.strobe, v.argv...)
		if err != nil {
			b.Fatalf("%s: %v", v.name, err)
		}
		if warm && bytes.Contains(r.stderr, []byte("Compiling ")) {
			b.Errorf("%s (%s) compiled again on a warm build: strobe's command and the raw one invalidate each other's builds\n%s",
				v.name, shell.Join(v.argv), tail(r.stderr, 2000))
		}
		checkPassed(b, v, r, tests)
		return r.wall, r.cpu
	}

	// Warm up: build (or check the build), fill go's test cache, and run
	// strobe once so that a rebuild caused by its flags happens now, then
	// run everything once more untimed and check that nothing compiles.
	load := loadavg()
	start := time.Now()
	rounds := overheadRounds
	for pass := range 2 {
		warm = pass == 1
		for i, v := range vs {
			wall, _ := run(v)
			if warm && i == 0 && wall < quickRaw {
				rounds = quickRounds
			}
		}
	}
	warmup := time.Since(start)
	// The Python adapters' and vitest's events come through a file the
	// parser tails, not through the output parseCost feeds it.
	parse := time.Duration(-1)
	if framework != "pytest" && framework != "vitest" {
		parse = parseCost(b, framework, dir, req)
	}

	walls := make([][]time.Duration, len(vs))
	cpus := make([][]time.Duration, len(vs))
	var ratios []float64
	peerRatios := make([][]float64, len(vs)) // strobe over each peer, round by round
	for i := range rounds {
		round := make([]time.Duration, len(vs))
		for k := range vs {
			j := (i + k) % len(vs)
			var cpu time.Duration
			round[j], cpu = run(vs[j])
			walls[j] = append(walls[j], round[j])
			cpus[j] = append(cpus[j], cpu)
		}
		ratios = append(ratios, float64(round[1])/float64(round[0]))
		for j, v := range vs {
			if v.peer {
				peerRatios[j] = append(peerRatios[j], float64(round[1])/float64(round[j]))
			}
		}
	}
	cpuRatio := float64(median(cpus[1])) / float64(median(cpus[0]))

	med := make([]time.Duration, len(vs))
	for j := range vs {
		med[j] = median(walls[j])
	}
	ratio := float64(med[1]) / float64(med[0])
	pairRatio := medianFloat(ratios)
	b.ReportMetric(ms(med[0]), "raw-ms")
	b.ReportMetric(ms(med[1]), "strobe-ms")
	b.ReportMetric(ms(med[1]-med[0]), "overhead-ms")
	b.ReportMetric(ratio, "ratio-of-medians")
	b.ReportMetric(pairRatio, "median-pair-ratio")
	var breakdown []string
	for j := 2; j < len(vs); j++ {
		b.ReportMetric(ms(med[j]), vs[j].name+"-ms")
		breakdown = append(breakdown, fmt.Sprintf("%s %.0f ms", vs[j].name, ms(med[j])))
	}
	b.ReportMetric(cpuRatio, "cpu-ratio")
	if parse >= 0 {
		b.ReportMetric(ms(parse), "parse-ms")
		breakdown = append(breakdown, fmt.Sprintf("parser alone %.1f ms", ms(parse)))
	}
	verdict := "met"
	if ratio > target || pairRatio > target {
		verdict = "MISSED"
	}
	peer := ""
	for j, v := range vs {
		if !v.peer {
			continue
		}
		pr := float64(med[j]) / float64(med[0])
		b.ReportMetric(pr, v.name+"-ratio")
		// The same comparison round by round: a load that drifts over
		// the rounds moves both of a round's runs alike.
		vsPeer := medianFloat(peerRatios[j])
		b.ReportMetric(vsPeer, "strobe-over-"+v.name)
		peer = fmt.Sprintf("; %s ratio %.3f, strobe over %s %.3f per pair", v.name, pr, v.name, vsPeer)
		if ratio >= pr {
			verdict = "MISSED (" + v.name + " is cheaper)"
		}
	}
	for j, v := range vs {
		b.Logf("%-11s %s: wall %v, cpu %v", v.name, shell.Join(v.argv), walls[j], cpus[j])
	}
	record(b, "ratio %.3f of medians, %.3f median per pair (strobe %.0f ms, raw %.0f ms, +%.0f ms%s; %s; cpu time ratio %.2f; %d tests, %d rounds, load %s; target <= %.2f and below the peer's: %s)",
		ratio, pairRatio, ms(med[1]), ms(med[0]), ms(med[1]-med[0]), peer, strings.Join(breakdown, ", "), cpuRatio, tests, rounds, load, target, verdict)
	b.Logf("warm-up %.1fs", warmup.Seconds())
}

// cargoCrate generates a library crate of mods modules with per passing
// tests each, doctests off (see BenchmarkOverhead).
func cargoCrate(b *testing.B, mods, per int) string {
	files := map[string]string{
		"Cargo.toml": "[package]\nname = \"strobe_bench\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\ndoctest = false\n\n[dependencies]\n",
	}
	var lib strings.Builder
	lib.WriteString("//! Generated by strobe's benchmarks: trivial passing tests.\n\npub fn add(a: u64, b: u64) -> u64 {\n    a + b\n}\n\n")
	for m := range mods {
		fmt.Fprintf(&lib, "#[cfg(test)]\nmod m%02d;\n", m)
		var src strings.Builder
		src.WriteString("use super::add;\n")
		for t := range per {
			fmt.Fprintf(&src, "\n#[test]\nfn t_%03d() {\n    assert_eq!(add(%d, %d), %d);\n}\n", t, m, t, m+t)
		}
		files[fmt.Sprintf("src/m%02d.rs", m)] = src.String()
	}
	files["src/lib.rs"] = lib.String()
	return cacheDir(b, fmt.Sprintf("cargo-%d", mods*per), files)
}

// goPrinter generates a module whose one test prints lines lines of 60
// bytes with fmt.Println and passes.
func goPrinter(b *testing.B, lines int) string {
	src := fmt.Sprintf("package p\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\nfunc TestPrint(t *testing.T) {\n\tfor i := range %d {\n\t\tfmt.Println(\"line\", i, \"of the print-heavy benchmark test, padded to sixty bytes\")\n\t}\n}\n", lines)
	return cacheDir(b, fmt.Sprintf("go-print-%d", lines), map[string]string{
		"go.mod":      "module example.com/strobeprint\n\ngo 1.22\n",
		"p/p_test.go": src,
	})
}

// pytestProject generates a project of mods test files with per passing
// test functions each, and no pytest configuration: detection finds the
// test files and checks that pytest is installed, as on a project that
// never configured it.
func pytestProject(b *testing.B, mods, per int) string {
	files := map[string]string{"calc.py": "def add(a, b):\n    return a + b\n"}
	for m := range mods {
		var src strings.Builder
		src.WriteString("from calc import add\n")
		for t := range per {
			fmt.Fprintf(&src, "\n\ndef test_add_%03d():\n    assert add(%d, %d) == %d\n", t, m, t, m+t)
		}
		files[fmt.Sprintf("tests/test_m%02d.py", m)] = src.String()
	}
	return cacheDir(b, fmt.Sprintf("pytest-%d", mods*per), files)
}

// goModule generates a module of pkgs packages with per passing tests each.
func goModule(b *testing.B, pkgs, per int) string {
	files := map[string]string{"go.mod": "module example.com/strobebench\n\ngo 1.22\n"}
	for p := range pkgs {
		files[fmt.Sprintf("p%d/p.go", p)] = fmt.Sprintf("// Package p%d is generated by strobe's benchmarks.\npackage p%d\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n", p, p)
		var src strings.Builder
		fmt.Fprintf(&src, "package p%d\n\nimport \"testing\"\n", p)
		for t := range per {
			fmt.Fprintf(&src, "\nfunc TestAdd%03d(t *testing.T) {\n\tif got := Add(%d, %d); got != %d {\n\t\tt.Fatalf(\"Add = %%d\", got)\n\t}\n}\n", t, p, t, p+t)
		}
		files[fmt.Sprintf("p%d/p_test.go", p)] = src.String()
	}
	return cacheDir(b, fmt.Sprintf("go-%d", pkgs*per), files)
}
