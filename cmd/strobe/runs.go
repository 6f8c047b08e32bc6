package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"strobe/details"
	"strobe/report"
)

func init() {
	register(command{name: "runs", summary: "[-n N] [--json]  list recent runs", order: 20, run: cmdRuns})
	register(command{name: "show", summary: "RUN_ID [--json]  print one run's result (--json: its details file)", order: 21, run: cmdShow})
}

func cmdRuns(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe runs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 20, "how many runs to list")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if *n < 1 {
		fmt.Fprintf(stderr, "strobe runs: -n %d lists nothing: give how many runs to list, 1 or more\n", *n)
		return exitUsage
	}
	dir := details.Dir()
	entries, err := details.List(dir)
	if err != nil {
		fmt.Fprintf(stderr, "strobe: listing %s: %v\n", dir, err)
		return exitUsage
	}
	var sums []*details.Summary
	for _, e := range entries {
		if len(sums) == *n {
			break
		}
		if s, err := details.ReadSummary(e.Path); err == nil {
			sums = append(sums, s)
		}
	}
	if *asJSON {
		if sums == nil {
			sums = []*details.Summary{}
		}
		writeJSON(stdout, sums)
		return exitOK
	}
	if len(sums) == 0 {
		fmt.Fprintln(stdout, "no runs yet: `strobe test DIR` runs a project's tests")
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tWHEN\tSTATUS\tFRAMEWORK\tPASSED\tFAILED\tCHANGES\tPROJECT")
	for i, s := range sums {
		r := s.Response
		var passed, failed int
		if r.Summary != nil {
			passed, failed = r.Summary.Passed, r.Summary.Failed
		}
		when := time.Since(entries[i].ModTime).Round(time.Second)
		fmt.Fprintf(tw, "%s\t%s ago\t%s\t%s\t%d\t%d\t%s\t%s\n", shortID(r.RunID), when, r.Status, s.Adapter, passed, failed, changesColumn(r.Changes), s.ProjectRoot)
	}
	tw.Flush()
	return exitOK
}

// changesColumn sums up a run's changes since the run it was compared
// with, by their JSON names: "-" when it was compared with none.
func changesColumn(c *report.Changes) string {
	if c == nil {
		return "-"
	}
	var parts []string
	for _, l := range changeLists(c) {
		if l.Count > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", l.label, l.Count))
		}
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, ", ")
}

type changeList struct {
	label string
	report.Names
}

func changeLists(c *report.Changes) []changeList {
	lists := []changeList{{"new_failures", c.NewFailures}, {"still_failing", c.StillFailing}, {"fixed", c.Fixed},
		{"new_tests", c.NewTests}, {"removed_tests", c.RemovedTests}}
	if c.CutOff != nil {
		lists = append(lists, changeList{"cut_off", *c.CutOff})
	}
	return lists
}

// shortID is enough of a run id for `strobe show`, which takes prefixes.
func shortID(id string) string {
	if i := strings.IndexByte(id, '-'); i > 0 {
		return id[:i]
	}
	return id
}

func cmdShow(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe show", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the whole details file")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	rest := fs.Args() // flags may also follow the id
	if len(rest) > 0 {
		if err := parseFlags(fs, rest[1:]); err != nil {
			return exitUsage
		}
		rest = append(rest[:1], fs.Args()...)
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "strobe: usage: strobe show RUN_ID [--json] (`strobe runs` lists the ids)")
		return exitUsage
	}
	rec, err := details.Read(details.Dir(), rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "strobe: %v\n", err)
		return exitUsage
	}
	if *asJSON {
		writeJSON(stdout, rec)
		return exitOK
	}
	render(stdout, &rec.Response, colorFor(stdout))
	return exitOK
}
