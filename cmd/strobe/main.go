// Command strobe runs a project's tests through a framework adapter and
// answers with a short structured result: which test failed, where and why,
// whether the run crashed, hung or failed to build, and how to rerun just
// the failing test. Every run also writes a full JSON details file.
//
// main only routes; each subcommand lives in a file of its own.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `strobe: a test runner for coding agents and the people beside them

usage:
  strobe test [DIR] [flags]   run a project's tests (strobe test -h for flags)
  strobe runs [-n N] [--json] list recent runs
  strobe show RUN_ID [--json] print one run's result (--json: its details file)
  strobe version              print the version
`

// exit codes
const (
	exitOK        = 0
	exitFailed    = 1 // tests failed, stuck, crashed, timed out, did not build, none found
	exitUsage     = 2 // usage or environment error
	exitInterrupt = 130
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "test":
		return cmdTest(ctx, args[1:], stdout, stderr)
	case "runs":
		return cmdRuns(args[1:], stdout, stderr)
	case "show":
		return cmdShow(args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "strobe", version)
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "strobe: unknown command %q: run `strobe help` for the commands\n", args[0])
	return exitUsage
}
