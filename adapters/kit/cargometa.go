package kit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// CargoMetadata is what `cargo metadata --no-deps` says of a workspace's
// packages, as the cargo and nextest adapters read it.
type CargoMetadata struct {
	WorkspaceRoot           string         `json:"workspace_root"`
	WorkspaceMembers        []string       `json:"workspace_members"`
	WorkspaceDefaultMembers []string       `json:"workspace_default_members"`
	Packages                []CargoPackage `json:"packages"`
}

// CargoPackage is one package of CargoMetadata.
type CargoPackage struct {
	ID           string        `json:"id"`
	Name         string        `json:"name"`
	ManifestPath string        `json:"manifest_path"`
	Targets      []CargoTarget `json:"targets"`
}

// CargoTarget is one target of a package.
type CargoTarget struct {
	Kind       []string `json:"kind"`
	CrateTypes []string `json:"crate_types"`
	Name       string   `json:"name"`
	Doctest    bool     `json:"doctest"`
	SrcPath    string   `json:"src_path"` // its root source file, absolute
	// Test is false for a target cargo test leaves out (test = false);
	// older cargo may not print the field: absent means tested.
	Test *bool `json:"test"`
}

// Tested says whether cargo test runs the target by default.
func (t CargoTarget) Tested() bool { return t.Test == nil || *t.Test }

// IsLib reports whether t is the package's library, whatever its crate
// types (lib, rlib, cdylib, proc-macro...).
func (t CargoTarget) IsLib() bool {
	for _, k := range t.Kind {
		switch k {
		case "bin", "test", "bench", "example", "custom-build":
			return false
		}
	}
	return len(t.Kind) > 0
}

// ReadCargoMetadata runs cargo metadata with cargo (and its toolchain:
// `cargo +nightly`) in dir, manifest the flags that name the manifest
// (--manifest-path). It reads manifests only: fast, and no network. A
// plain `cargo` that is rustup's proxy runs as CargoDirect says.
func ReadCargoMetadata(ctx context.Context, cargo []string, dir string, manifest, env []string) (*CargoMetadata, error) {
	argv := append(slices.Clone(cargo), "metadata", "--no-deps", "--format-version", "1")
	if len(cargo) == 1 && cargo[0] == "cargo" {
		if direct, add := CargoDirect(ctx, dir, env); direct != "" {
			if env == nil {
				env = os.Environ()
			}
			argv[0], env = direct, slices.Concat(env, add)
		}
	}
	// The metadata of a large workspace runs to megabytes; one cut short
	// fails to decode, an error rather than memory without bound.
	tool := Tool{Dir: dir, Env: env, Timeout: time.Minute, MaxOutput: 64 << 20}
	out, stderr, err := RunTool(ctx, tool, append(argv, manifest...)...)
	if err != nil {
		return nil, fmt.Errorf("cargo metadata in %s: %w: %s", dir, err, strings.TrimSpace(string(stderr)))
	}
	var m CargoMetadata
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, fmt.Errorf("reading cargo metadata: %w", err)
	}
	return &m, nil
}

// SrcPath is the root source file of a package's target, as nextest
// names a test binary (its crate, binary and kind: lib, proc-macro, bin,
// test, bench, example); "" when there is none.
func (m *CargoMetadata) SrcPath(pkg, name, kind string) string {
	for _, p := range m.Packages {
		if p.Name != pkg {
			continue
		}
		for _, t := range p.Targets {
			lib := kind == "lib" || kind == "proc-macro"
			if t.Name == name && (lib && t.IsLib() || !lib && slices.Contains(t.Kind, kind)) {
				return t.SrcPath
			}
		}
	}
	return ""
}

// DefaultMembers are the ids of the packages a plain cargo test at the
// workspace's root tests.
func (m *CargoMetadata) DefaultMembers() []string {
	if m.WorkspaceDefaultMembers == nil { // cargo before 1.71
		return m.WorkspaceMembers
	}
	return m.WorkspaceDefaultMembers
}

// HasLib says whether a package that a plain cargo test in dir tests has a
// library, whose doctests it would run.
func (m *CargoMetadata) HasLib(dir string) bool {
	for _, p := range m.Selected(dir) {
		for _, t := range p.Targets {
			if t.IsLib() && t.Doctest { // doctest = false in [lib] turns them off
				return true
			}
		}
	}
	return false
}

// Selected returns the packages a plain cargo test in dir tests: the
// package whose manifest is in dir when dir is a member, else the
// workspace's default members.
func (m *CargoMetadata) Selected(dir string) []CargoPackage {
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if filepath.Clean(dir) != filepath.Clean(m.WorkspaceRoot) {
		for _, p := range m.Packages {
			if p.ManifestPath == filepath.Join(dir, "Cargo.toml") {
				return []CargoPackage{p}
			}
		}
	}
	ids := m.DefaultMembers()
	var out []CargoPackage
	for _, p := range m.Packages {
		if slices.Contains(ids, p.ID) {
			out = append(out, p)
		}
	}
	return out
}
