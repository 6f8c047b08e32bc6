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
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"text/tabwriter"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand. Each lives in a file of its own and registers
// itself in that file's init, so adding one touches nothing else.
type command struct {
	name    string
	summary string // "ARGS  what it does", for the usage text
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	order   int // place in the usage text
}

var commands = map[string]command{}

func register(c command) { commands[c.name] = c }

// exit codes
const (
	exitOK        = 0
	exitFailed    = 1 // tests failed, stuck, crashed, timed out, did not build, none found
	exitUsage     = 2 // usage or environment error
	exitInterrupt = 130
)

func main() {
	if os.Getenv(heapProfileEnv) == "" {
		// No heap profile asked for: no allocation sampling either. Each
		// sample unwinds the allocating stack; in a `strobe test` they
		// were 2% of the CLI's CPU.
		runtime.MemProfileRate = 0
	}
	tuneGC()
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "--help":
		printUsage(stdout)
		return exitOK
	case "--version":
		args[0] = "version"
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "strobe: unknown command %q: run `strobe help` for the commands\n", args[0])
		return exitUsage
	}
	return c.run(ctx, args[1:], stdout, stderr)
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "strobe: a test runner for coding agents and the people beside them\n\nusage:")
	cs := make([]command, 0, len(commands))
	for _, c := range commands {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		return cs[i].order < cs[j].order || cs[i].order == cs[j].order && cs[i].name < cs[j].name
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range cs {
		args, what, _ := strings.Cut(c.summary, "  ")
		fmt.Fprintf(tw, "  strobe %s %s\t%s\n", c.name, args, what)
	}
	tw.Flush()
}

func init() {
	register(command{name: "version", summary: "  print the version", order: 90, run: func(_ context.Context, _ []string, stdout, _ io.Writer) int {
		fmt.Fprintln(stdout, "strobe", version)
		return exitOK
	}})
}

// Garbage collection of every strobe process, unless GOGC or GOMEMLIMIT
// says otherwise. strobe's live heap is a few MiB, so at GOGC=100 a run
// collected many times (the daemon: the MCP SDK's JSON decoder allocates
// 32 KiB a message; `strobe test --no-daemon`: 7 of the 50 ms of CPU it
// spent on a 2,000-test crate), on the cores the tests run on. A
// collection every gcPercent% of growth costs that a fraction; the soft
// limit keeps a run that prints hundreds of MB within its memory target
// (and follows a live heap that outgrows it: followLiveHeap), and the
// daemon's trimmer still gives memory back once it idles.
const (
	gcPercent = 400
	memLimit  = 32 << 20
)

func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memLimit)
		followLiveHeap(memLimit)
	}
}
