package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"strobe/install"
)

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

func init() {
	register(command{name: "install", summary: "[flags]  register strobe with the coding agents found here (strobe install -h)", order: 5, run: cmdInstall})
}

func cmdInstall(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: strobe install [flags]\n\n"+
			"Registers strobe's MCP server (`<this binary> mcp`) and its skills with each coding agent\n"+
			"found on this machine: %s.\n\nflags:\n", strings.Join(install.Names(), ", "))
		fs.PrintDefaults()
	}
	var o install.Options
	var agents listFlag
	fs.Var(&agents, "agent", "only this agent (repeatable): "+strings.Join(install.Names(), ", "))
	fs.StringVar(&o.Project, "project", "", "install into this project's files (.mcp.json, .codex/config.toml, ...) instead of your user's")
	fs.BoolVar(&o.DryRun, "dry-run", false, "print what would change, as a diff per file, and write nothing")
	fs.BoolVar(&o.Uninstall, "uninstall", false, "remove what strobe install added")
	fs.StringVar(&o.Binary, "binary", "", "the strobe binary to register (default: this one)")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strobe install: unexpected argument %q: did you mean --project %s?\n", fs.Arg(0), fs.Arg(0))
		return exitUsage
	}
	o.Agents = agents
	if o.Binary == "" {
		bin, err := strobeBinary()
		if err != nil {
			fmt.Fprintf(stderr, "strobe install: %v\n", err)
			return exitUsage
		}
		o.Binary = bin
	} else if abs, err := filepath.Abs(o.Binary); err == nil {
		o.Binary = abs
	}
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintf(stderr, "strobe install: %v\n", err)
		return exitUsage
	}
	o.Home, o.Getenv, o.LookPath, o.Diff = home, os.Getenv, exec.LookPath, stdout
	results, err := install.Run(o)
	if err != nil {
		fmt.Fprintf(stderr, "strobe install: %v\n", err)
		return exitUsage
	}
	return printInstall(stdout, o, results)
}

func printInstall(stdout io.Writer, o install.Options, results []install.Result) int {
	code, found, changed := exitOK, false, false
	for _, r := range results {
		if r.Outcome != install.Skipped {
			found = true
		}
		if r.Outcome == install.Installed || r.Outcome == install.Updated {
			changed = true
		}
		line := fmt.Sprintf("%-9s %s", r.Agent, r.Outcome)
		switch r.Outcome {
		case install.Failed:
			code = exitFailed
			fmt.Fprintf(stdout, "%s: %s\n", line, r.Detail)
			continue
		case install.Skipped, install.NotInstalled:
			line += ": " + r.Detail
		case install.WouldChange:
			line += ": " + r.Detail + " (dry run: nothing written)"
		default:
			line += ": " + r.Detail
		}
		if !o.Uninstall && r.Outcome != install.Skipped && !o.DryRun {
			line += "; check: " + r.Check
		}
		fmt.Fprintln(stdout, line)
		for _, n := range r.Notes {
			fmt.Fprintf(stdout, "          note: %s\n", n)
		}
	}
	if !found && !o.Uninstall {
		fmt.Fprint(stdout, install.Manual(o.Binary))
	}
	if changed {
		fmt.Fprintln(stdout, "Restart the agents (or start a new session) so they load strobe.")
	}
	return code
}

// strobeBinary is the absolute path agents should run: the PATH entry the
// user typed when it is this very file (so an upgrade that replaces it, or a
// symlink such as Homebrew's, keeps working), else the executable itself.
func strobeBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this binary's path: %w; pass --binary PATH", err)
	}
	if strings.Contains(exe, "go-build") {
		return "", errors.New("this binary is a temporary `go run` build: install strobe first (make build, or go install ./cmd/strobe), then run its install, or pass --binary PATH")
	}
	arg0 := os.Args[0]
	cand := arg0
	if !strings.Contains(arg0, string(filepath.Separator)) {
		if p, err := exec.LookPath(arg0); err == nil {
			cand = p
		}
	}
	if abs, err := filepath.Abs(cand); err == nil && sameFile(abs, exe) {
		return abs, nil
	}
	return exe, nil
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
