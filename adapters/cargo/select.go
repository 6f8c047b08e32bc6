package cargo

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// SelectsTests: libtest takes several filters, and with --exact runs the
// tests so named; cargo hands them to every test binary.
func (cargo) SelectsTests() {}

// List builds the selection's test binaries (cargo test --no-run, the same
// build the run then reuses) and asks each for its tests with libtest's
// stable `--list --format terse`. Doctests are not listed: rustdoc runs them
// in a step of its own, which a partition leaves out; nor are binaries with
// their own main (harness = false).
func (cargo) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	if len(req.Command) > 0 {
		return nil, adapters.Usagef("strobe lists cargo tests for its own cargo test command only: drop the command and choose tests with the level")
	}
	if req.Level == adapters.LevelDoc {
		return nil, adapters.Usagef("doctests cannot be listed before they run: leave out the doc level to partition the test binaries")
	}
	var meta *kit.CargoMetadata
	if req.Level != adapters.LevelAll {
		var err error
		if meta, err = kit.ReadCargoMetadata(ctx, []string{"cargo"}, req.ProjectRoot, nil, req.Env); err != nil {
			return nil, err
		}
	}
	sel, err := cargoSelection(req, meta)
	if err != nil {
		return nil, err
	}
	tool := kit.Tool{Dir: req.ProjectRoot, Env: req.Env, MaxOutput: 64 << 20}
	argv := append([]string{"cargo", "test", "--no-run", "--message-format=json"}, sel...)
	out, errOut, err := kit.RunTool(ctx, tool, argv...)
	if err != nil {
		return nil, fmt.Errorf("building the tests to list them (%s): %w: %s", strings.Join(argv, " "), err, kit.ClipTo(string(bytes.TrimSpace(errOut)), 400, "…"))
	}
	// A binary with its own main is not libtest's: --list means what its
	// main makes of it (rust-url's url_wpt reads it as a filter; another
	// fails on any argument). It cannot be listed.
	customs, _ := customHarnesses(ctx, []string{"cargo", "test"}, req.ProjectRoot, nil, req.Env, meta)
	var refs []adapters.TestRef
	for _, bin := range cargoTestBinaries(out) {
		if slices.ContainsFunc(customs, func(p string) bool { ok, _ := path.Match(p, filepath.Base(bin.exe)); return ok }) {
			continue
		}
		list := []string{bin.exe, "--list", "--format", "terse"}
		if req.Test != "" {
			list = append(list, "--exact", req.Test)
		}
		out, errOut, err := kit.RunTool(ctx, tool, list...)
		if err != nil {
			return nil, fmt.Errorf("listing the tests of %s: %w: %s", bin.target.suite(), err, kit.ClipTo(string(bytes.TrimSpace(errOut)), 400, "…"))
		}
		for _, name := range parseTerseList(out) {
			refs = append(refs, adapters.TestRef{Suite: bin.target.suite(), Name: name})
		}
	}
	return refs, nil
}

type cargoBinary struct {
	exe    string
	target cargoTarget
}

// cargoTestBinaries reads the test executables from cargo's artifacts.
func cargoTestBinaries(out []byte) []cargoBinary {
	var bins []cargoBinary
	for line := range bytes.Lines(out) {
		var m cargoMessage
		if json.Unmarshal(line, &m) != nil || m.Reason != "compiler-artifact" || !m.Profile.Test || m.Executable == "" {
			continue
		}
		t := cargoTarget{kind: cargoTargetKind(m.Target.Kind), name: m.Target.Name}
		t.pkg, t.version = cargoPackageID(m.PackageID)
		if !slices.ContainsFunc(bins, func(b cargoBinary) bool { return b.exe == m.Executable }) {
			bins = append(bins, cargoBinary{exe: m.Executable, target: t})
		}
	}
	return bins
}

// parseTerseList reads libtest's "name: test" lines; benchmarks, which
// cargo test does not run, are left out.
func parseTerseList(out []byte) []string {
	var names []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if name, ok := strings.CutSuffix(sc.Text(), ": test"); ok {
			names = append(names, name)
		}
	}
	return names
}

// exactArgs are the libtest arguments that run tests by name.
func exactArgs(tests []adapters.TestRef) []string {
	args := []string{"--exact"}
	for _, t := range tests {
		if !slices.Contains(args[1:], t.Name) {
			args = append(args, t.Name)
		}
	}
	return args
}
