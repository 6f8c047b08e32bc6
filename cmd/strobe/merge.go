package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"strobe/details"
	"strobe/junit"
	"strobe/report"
	"strobe/shard"
)

func init() {
	register(command{name: "merge", summary: "DETAILS... [--junit FILE] [--json]  combine CI shards' details files into one answer", order: 35, run: cmdMerge})
}

// cmdMerge reads the details files of a partitioned run's shards (a CI
// matrix's artifacts) and answers for the whole suite, with one JUnit file.
func cmdMerge(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strobe merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: strobe merge DETAILS... [--junit FILE] [--json]\n\nCombines the details files of the shards of one run (strobe test --partition) into one answer.\n\nflags:")
		fs.PrintDefaults()
	}
	junitPath := fs.String("junit", "", "write the merged JUnit XML report to this file")
	asJSON := fs.Bool("json", false, "print only the JSON response")
	var files []string
	for rest := args; ; {
		if err := parseFlags(fs, rest); err != nil {
			return exitUsage
		}
		if rest = fs.Args(); len(rest) == 0 {
			break
		}
		files, rest = append(files, rest[0]), rest[1:]
	}
	if len(files) == 0 {
		return usageError(stdout, stderr, *asJSON, fmt.Errorf("no details files: give the shards' details files (the \"details\" path of each shard's answer)"))
	}
	recs := make([]*details.Record, len(files))
	for i, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return usageError(stdout, stderr, *asJSON, err)
		}
		if recs[i], err = details.Read("", abs); err != nil {
			return usageError(stdout, stderr, *asJSON, fmt.Errorf("%w: give a details file strobe test wrote", err)) // err names the file
		}
	}
	m, err := shard.Merge(recs, files)
	if err != nil {
		return usageError(stdout, stderr, *asJSON, err)
	}
	for _, w := range m.Warnings {
		fmt.Fprintf(stderr, "strobe: warning: %s\n", w)
	}
	if *junitPath != "" {
		doc := junit.Build(junit.Run{Response: &m.Response, Tests: m.Tests, Started: m.Started})
		if err := junit.WriteFile(*junitPath, doc); err != nil {
			fmt.Fprintf(stderr, "strobe: %v: check the --junit path\n", err)
			return exitUsage
		}
		m.Response.JUnit = *junitPath
	}
	if *asJSON {
		writeJSON(stdout, &m.Response)
	} else {
		render(stdout, &m.Response, colorFor(stdout))
	}
	if len(m.Warnings) > 0 && strings.TrimSpace(m.Response.Hint) != "" && m.Response.Status == report.Passed {
		return exitFailed // a merge missing a shard has not shown that the suite passes
	}
	return exitCode(m.Response.Status)
}
