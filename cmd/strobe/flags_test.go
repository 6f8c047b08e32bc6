package main

import (
	"flag"
	"strings"
	"testing"
	"time"
)

// TestParseFlags: a bad flag is one line saying what the value must be,
// never the flag package's "parse error" and the whole usage; -h is the
// usage.
func TestParseFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-n", "x"}, `strobe x: invalid value "x" for flag -n: not a whole number (strobe x -h lists the flags)` + "\n"},
		{[]string{"-idle", "soon"}, `strobe x: invalid value "soon" for flag -idle: not a duration (such as 30s or 2m) (strobe x -h lists the flags)` + "\n"},
		{[]string{"-min", "a"}, `strobe x: invalid value "a" for flag -min: not a number (strobe x -h lists the flags)` + "\n"},
		{[]string{"-json=maybe"}, `strobe x: invalid boolean value "maybe" for -json: not true or false (strobe x -h lists the flags)` + "\n"},
		{[]string{"-nope"}, "strobe x: flag provided but not defined: -nope (strobe x -h lists the flags)\n"},
		{[]string{"-h"}, "usage: strobe x\n"},
		{[]string{"-n", "3"}, ""},
	} {
		var out strings.Builder
		fs := flag.NewFlagSet("strobe x", flag.ContinueOnError)
		fs.SetOutput(&out)
		fs.Usage = func() { out.WriteString("usage: strobe x\n") }
		fs.Int("n", 1, "")
		fs.Duration("idle", time.Second, "")
		fs.Float64("min", 0, "")
		fs.Bool("json", false, "")
		err := parseFlags(fs, c.args)
		if (err == nil) != (c.want == "") || out.String() != c.want {
			t.Errorf("%q: %v\n%q\nwant\n%q", c.args, err, out.String(), c.want)
		}
	}
}
