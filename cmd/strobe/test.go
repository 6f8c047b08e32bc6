package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"strobe/adapters/all"
	"strobe/daemon"
	"strobe/history"
	"strobe/internal/shell"
	"strobe/report"
	"strobe/runner"
)

// envFlag collects repeated --env K=V.
type envFlag map[string]string

func (e envFlag) String() string { return "" }
func (e envFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want NAME=value, got %q", s)
	}
	e[k] = v
	return nil
}

func init() {
	register(command{name: "test", summary: "[DIR] [flags]  run a project's tests (strobe test -h for flags)", order: 10, run: cmdTest})
}

func cmdTest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe test", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: strobe test [DIR] [flags]\n\nRuns the tests of the project in DIR (default: the current directory).\n\nflags:")
		fs.PrintDefaults()
	}
	var req runner.Request
	env := envFlag{}
	var timeout string
	var asJSON bool
	fs.StringVar(&req.Framework, "framework", "", "framework to use instead of detecting it: "+strings.Join(all.Names(), ", "))
	fs.StringVar(&req.Level, "level", "", "unit, integration, e2e or doc (cargo's doctests) (default: the whole suite)")
	fs.StringVar(&req.Test, "test", "", "run only the test of this name")
	fs.StringVar(&req.Command, "command", "", "test binary, or for generic the whole command line")
	fs.Var(env, "env", "extra environment variable NAME=value (repeatable)")
	fs.StringVar(&timeout, "timeout", "", "hard timeout of the test phase, e.g. 30s or 5m (a bare number is seconds; default by level: unit 30s, integration 2m, e2e 5m, all 10m)")
	fs.BoolVar(&asJSON, "json", false, "print only the JSON response")
	noDaemon := fs.Bool("no-daemon", false, "run in this process instead of through the daemon")
	junitPath := fs.String("junit", "", "also write the run's JUnit XML report to this file (for CI test reporters)")
	fs.BoolVar(&req.OnlyFailed, "failed", false, "rerun only the failed and stuck tests of the previous run of this project and selection")
	fs.StringVar(&req.Partition, "partition", "", "run one part of the suite on this CI machine: hash:M/N or slice:M/N (merge the parts with strobe merge)")
	traced := traceFlags(fs)
	fs.IntVar(&req.Retries, "retries", 0, "rerun each failed test alone up to `N` times (at most 10); one that then passes is flaky, not failed")
	fs.BoolVar(&req.RetryStuck, "retry-stuck", false, "with --retries: rerun stuck tests, and those a crash left running, too")
	fs.IntVar(&req.Repeat, "repeat", 0, "run the selection `N` times (at most 100) and count each test's passes and failures, to hunt flaky tests")

	// Flags may come before or after DIR.
	var dirs []string
	for rest := args; ; {
		if err := parseFlags(fs, rest); err != nil {
			return exitUsage
		}
		if rest = fs.Args(); len(rest) == 0 {
			break
		}
		dirs, rest = append(dirs, rest[0]), rest[1:]
	}
	dir := "."
	switch len(dirs) {
	case 0:
	case 1:
		dir = dirs[0]
	default:
		return usageError(stdout, stderr, asJSON, fmt.Errorf("unexpected argument %q: give one project directory, then flags", dirs[1]))
	}
	if timeout != "" {
		d, err := time.ParseDuration(timeout)
		if n, nerr := strconv.Atoi(timeout); err != nil && nerr == nil {
			d, err = time.Duration(n)*time.Second, nil // a bare number is seconds, as --timeout 60 means
		}
		if err != nil {
			return usageError(stdout, stderr, asJSON, fmt.Errorf("timeout %q is not a duration: use for instance 30s, 2m or 1h", timeout))
		}
		switch {
		case d == 0:
			return usageError(stdout, stderr, asJSON, fmt.Errorf("timeout 0 would stop the run at once: give a positive duration, or leave it out for the default"))
		case d < 0:
			// Said here in what was typed: the daemon's check speaks of
			// the request's milliseconds ("-5000 ms" for --timeout -5).
			return usageError(stdout, stderr, asJSON, fmt.Errorf("timeout %s is negative: give a positive duration such as 30s or 5m, or leave it out for the default", timeout))
		}
		req.Timeout = d
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usageError(stdout, stderr, asJSON, err)
	}
	req.ProjectRoot = abs
	req.Env = env
	req.Trace = traced()

	if *junitPath != "" {
		if *junitPath, err = filepath.Abs(*junitPath); err != nil {
			return usageError(stdout, stderr, asJSON, err)
		}
	}

	// A closed terminal (SIGHUP) stops the run as Ctrl+C does: the run is
	// swept and its details file written, not left to the guard.
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if !*noDaemon {
		return testThroughDaemon(ctx, req, asJSON, *junitPath, stdout, stderr)
	}
	var opts runner.Options
	if home, err := daemon.Home(); err == nil {
		opts.HistoryDir = history.Dir(home)
	}
	r, err := runner.Start(ctx, req, opts)
	if err != nil {
		return usageError(stdout, stderr, asJSON, err)
	}
	var p *progress
	if f, ok := stderr.(*os.File); ok && !asJSON && term.IsTerminal(int(f.Fd())) {
		p = startProgress(f, func() string { return daemon.ProgressMessage(r.Framework(), r.Running().Progress) })
	}
	select {
	case <-r.Done():
	case <-ctx.Done():
		r.Cancel()
		<-r.Done()
	}
	p.stop()
	return finish(stdout, stderr, r.Result(), asJSON, *junitPath, req.ProjectRoot)
}

// finish prints a run's response, copies its JUnit report to junitPath
// when asked, and turns it into the exit code. root is the project's
// directory: the reruns printed are pasted where strobe was run, and start
// with a cd to it when it is another (the JSON's stay as they are, to be
// run in the project root).
func finish(stdout, stderr io.Writer, resp *report.Response, asJSON bool, junitPath, root string) int {
	if junitPath != "" {
		if err := copyJUnit(resp.JUnit, junitPath); err != nil {
			fmt.Fprintf(stderr, "strobe: %v\n", err)
		}
	}
	if asJSON {
		writeJSON(stdout, resp)
	} else {
		render(stdout, pastedHere(resp, root), colorFor(stdout))
		renderTrace(stdout, resp, colorFor(stdout))
	}
	if resp.Status == report.NoTests && resp.Partition != nil && resp.Partition.Listed > 0 {
		return exitOK // a CI shard that drew no test of a small suite has not failed
	}
	return exitCode(resp.Status)
}

// copyJUnit copies the report the run wrote beside its details file to
// dst, which a CI job names in advance.
func copyJUnit(src, dst string) error {
	if src == "" {
		return fmt.Errorf("no JUnit report to write to %s: the run did not get far enough to write one", dst)
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("reading the JUnit report: %w", err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return fmt.Errorf("writing the JUnit report: %w: check the --junit path", err)
	}
	return nil
}

func exitCode(s report.Status) int {
	switch s {
	case report.Passed:
		return exitOK
	case report.Cancelled:
		return exitInterrupt
	case report.Error:
		return exitUsage
	}
	return exitFailed
}

// usageError reports a request that could not run: one line on stderr, and
// with --json the error response on stdout, so a script reads it either way.
func usageError(stdout, stderr io.Writer, asJSON bool, err error) int {
	if asJSON {
		writeJSON(stdout, runner.ErrorResponse(err))
	}
	fmt.Fprintf(stderr, "strobe: %v\n", err)
	return exitUsage
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// pastedHere is resp with its reruns starting with a cd from the working
// directory to root, when strobe was pointed at another directory
// (`strobe test tests/`): pasted where strobe ran, a rerun ran in the
// wrong place (pytest: "file or directory not found"). resp itself is
// left as it is.
func pastedHere(resp *report.Response, root string) *report.Response {
	wd, err := os.Getwd()
	if err != nil || root == "" {
		return resp
	}
	rel, err := filepath.Rel(wd, root)
	if err != nil || rel == "." {
		return resp
	}
	if strings.HasPrefix(rel, "../../../") {
		rel = root // far above: the path itself reads better
	}
	cd := "cd " + shell.Quote(rel) + " && "
	out := *resp
	out.Failures = slices.Clone(resp.Failures)
	for i := range out.Failures {
		if out.Failures[i].Rerun != "" {
			out.Failures[i].Rerun = cd + out.Failures[i].Rerun
		}
	}
	out.Stuck = slices.Clone(resp.Stuck)
	for i := range out.Stuck {
		if out.Stuck[i].Rerun != "" {
			out.Stuck[i].Rerun = cd + out.Stuck[i].Rerun
		}
	}
	return &out
}
