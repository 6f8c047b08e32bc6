package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// parseFlags parses args into fs. A bad flag answers one line that says
// what is wrong and where the flags are listed, not the whole usage text
// (strobe test has 17 flags); -h and --help print the usage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
	default:
		fmt.Fprintf(out, "%s: %s (%s -h lists the flags)\n", fs.Name(), flagReason(fs, err), fs.Name())
	}
	return err
}

// flagReason is err with the flag package's "parse error" replaced by what
// the flag's value must be.
func flagReason(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	head, ok := strings.CutSuffix(msg, ": parse error")
	_, name, found := strings.Cut(head, " for flag -")
	if !found {
		_, name, found = strings.Cut(head, " for -") // a boolean's
	}
	if !ok || !found {
		return msg
	}
	want := "not a value of this flag"
	if f := fs.Lookup(name); f != nil {
		switch f.Value.(flag.Getter).Get().(type) {
		case time.Duration:
			want = "not a duration (such as 30s or 2m)"
		case int, int64, uint, uint64:
			want = "not a whole number"
		case float64:
			want = "not a number"
		case bool:
			want = "not true or false"
		}
	}
	return head + ": " + want
}
