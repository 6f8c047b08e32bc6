package catch2

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// SelectsTests: a Catch2 test spec of several names separated by commas
// matches any of them, so one run of the binary runs any set of its tests
// (see multiSpec).
func (catch2) SelectsTests() {}

// List asks the binary for its test names under the run's own spec (the
// level's tag, the test, or the command's specs): Catch2 v2's
// --list-test-names-only prints one name a line, unwrapped; v3 dropped
// that option for `--list-tests --verbosity quiet`, which prints the same.
// Hidden tests ([.], [!hide]) are not listed, as a run does not run them.
func (catch2) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	bin, userArgs, _, err := catch2Binary(req)
	if err != nil {
		return nil, err
	}
	kept, specs := catch2Args(userArgs)
	if len(specs) > 0 && (req.Test != "" || req.Level != adapters.LevelAll) {
		return nil, adapters.Usagef("catch2: the command already selects tests (%s): drop them, or drop --test/--level", strings.Join(specs, " "))
	}
	switch {
	case req.Test != "":
		kept = append(kept, catch2Spec(req.Test))
	case req.Level != adapters.LevelAll:
		kept = append(kept, catch2LevelTag(req.Level))
	}
	names, err := listTests(ctx, kit.Tool{Dir: req.ProjectRoot, Env: req.Env, MaxOutput: 64 << 20}, bin, kept)
	if err != nil {
		return nil, fmt.Errorf("catch2: listing the tests of %s: %w", bin, err)
	}
	var refs []adapters.TestRef
	for _, name := range names {
		refs = append(refs, adapters.TestRef{Name: name})
	}
	return refs, nil
}

// listTests is the names of the tests bin runs with args (options and
// test specs): v2's --list-test-names-only, or v3's --list-tests
// --verbosity quiet.
func listTests(ctx context.Context, tool kit.Tool, bin string, args []string) ([]string, error) {
	out, err := listNames(ctx, tool, append([]string{bin, "--list-test-names-only"}, args...))
	if errors.Is(err, errUnknownOption) {
		out, err = listNames(ctx, tool, append([]string{bin, "--list-tests", "--verbosity", "quiet"}, args...))
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for line := range bytes.Lines(out) {
		if name := strings.TrimRight(string(line), "\r\n"); strings.TrimSpace(name) != "" {
			names = append(names, name)
		}
	}
	return names, nil
}

// multiSpec is the one test spec that runs exactly the named tests: each
// escaped as --test's is, joined by commas (Catch2's "or").
func multiSpec(tests []adapters.TestRef) string {
	specs := make([]string, 0, len(tests))
	for _, t := range tests {
		specs = append(specs, catch2Spec(t.Name))
	}
	return strings.Join(specs, ",")
}

// errUnknownOption is a binary's refusal of a listing option.
var errUnknownOption = errors.New("the binary does not know the option")

// listNames runs a listing and returns what it printed. Catch2 v2 exits
// with the number of tests it listed, so an exit status alone is no error;
// a command-line error (printed on stdout) is.
func listNames(ctx context.Context, tool kit.Tool, argv []string) ([]byte, error) {
	out, errOut, err := kit.RunTool(ctx, tool, argv...)
	if bytes.Contains(out, []byte("Unrecognised token")) || bytes.Contains(errOut, []byte("Unrecognised token")) {
		return nil, errUnknownOption
	}
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || len(bytes.TrimSpace(errOut)) > 0) {
		return nil, fmt.Errorf("%s: %w: %s", strings.Join(argv[1:], " "), err, kit.ClipTo(string(bytes.TrimSpace(errOut)), 400, "…"))
	}
	return out, nil
}
