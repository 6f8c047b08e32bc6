package kit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pelletier/go-toml/v2"

	"strobe/adapters"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// CargoDirect is the cargo strobe runs for a `cargo ...` command in dir,
// and what its environment needs beside the run's own: where `cargo` is
// rustup's proxy (which reads rustup's settings, walks up from dir for
// toolchain files and execs the toolchain's cargo: 5 ms here, on every
// run), the toolchain's cargo it would run, with the variables the proxy
// gives it. It returns "" wherever rustup would do more than strobe
// repeats, or something strobe has not checked against it: a toolchain
// chosen by RUSTUP_TOOLCHAIN, a +toolchain argument (the caller's to
// see), a directory override or a rust-toolchain file at or above dir, a
// default toolchain that is not installed under its full name, a rustup
// other than 1.29 (the proxy's environment differs between releases), a
// system other than Linux (macOS's loader variable has defaults of its
// own). The variables are what rustup 1.29's proxy sets (toolchain.rs
// set_env, proxy_mode.rs): LD_LIBRARY_PATH and PATH with the toolchain's
// lib and CARGO_HOME's bin first unless they are there already,
// CARGO_HOME, RUSTUP_HOME, RUSTUP_TOOLCHAIN, RUSTUP_TOOLCHAIN_SOURCE and
// RUST_RECURSION_COUNT one up. cargo then sees what it sees through the
// proxy, so that nothing it builds, or fingerprints, differs from a plain
// `cargo test`'s.
func CargoDirect(ctx context.Context, dir string, env []string) (cargo string, add []string) {
	if runtime.GOOS != "linux" {
		return "", nil
	}
	proxy, err := shell.LookPath("cargo", env)
	if err != nil || !rustupProxy(proxy) {
		return "", nil
	}
	for _, name := range []string{"RUSTUP_TOOLCHAIN", "CARGO"} {
		if _, set := EnvLookup(env, name); set {
			return "", nil // a toolchain named, or a cargo run by cargo
		}
	}
	count := 0
	if v, _ := EnvLookup(env, "RUST_RECURSION_COUNT"); v != "" {
		if n, err := strconv.ParseUint(v, 10, 32); err == nil {
			count = int(n)
		}
	}
	if count >= 20 {
		return "", nil // rustup's to refuse
	}
	cargoHome, rustupHome := rustupDir(env, "CARGO_HOME", ".cargo"), rustupDir(env, "RUSTUP_HOME", ".rustup")
	if cargoHome == "" || rustupHome == "" {
		return "", nil
	}
	name := rustupDefault(rustupHome, dir)
	if name == "" {
		return "", nil
	}
	toolchain := filepath.Join(rustupHome, "toolchains", name)
	cargo = filepath.Join(toolchain, "bin", "cargo")
	if fi, err := os.Stat(cargo); err != nil || !fi.Mode().IsRegular() {
		return "", nil
	}
	if !strings.HasPrefix(rustupVersion(ctx, filepath.Join(filepath.Dir(proxy), "rustup"), env), "1.29.") {
		return "", nil
	}
	return cargo, []string{
		"LD_LIBRARY_PATH=" + rustupInsertPath(env, "LD_LIBRARY_PATH", filepath.Join(toolchain, "lib")),
		"CARGO_HOME=" + cargoHome,
		"RUST_RECURSION_COUNT=" + strconv.Itoa(count+1),
		"RUSTUP_TOOLCHAIN=" + name,
		"RUSTUP_HOME=" + rustupHome,
		"PATH=" + rustupInsertPath(env, "PATH", filepath.Join(cargoHome, "bin")),
		"RUSTUP_TOOLCHAIN_SOURCE=default",
	}
}

// RunCargoDirect has plan run the toolchain's cargo where its command is
// `cargo ...`, with what CargoDirect gives it. The answer still names
// `cargo`, as the user types it; a command with a +toolchain keeps the
// proxy, which reads it.
func RunCargoDirect(ctx context.Context, plan *adapters.Plan, dir string, env []string) {
	if len(plan.Argv) < 2 || plan.Argv[0] != "cargo" || strings.HasPrefix(plan.Argv[1], "+") {
		return
	}
	cargo, add := CargoDirect(ctx, dir, env)
	if cargo == "" {
		return
	}
	if plan.Shown == "" {
		plan.Shown = shell.Join(plan.Argv)
	}
	plan.Argv = append([]string{cargo}, plan.Argv[1:]...)
	plan.Env = append(plan.Env, add...)
}

// rustupProxy says whether the program at path is rustup itself under
// another name: a symlink to the rustup beside it, or a hard link.
func rustupProxy(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	ru, err := os.Stat(filepath.Join(filepath.Dir(path), "rustup"))
	return err == nil && os.SameFile(fi, ru)
}

// rustupDir is CARGO_HOME or RUSTUP_HOME as rustup reads them (the home
// crate): the variable when it is set and not empty, else a directory in
// HOME. "" when the one it comes from is relative (rustup reads it from
// the proxy's directory) or not in its clean form (rustup passes it on as
// it is, and joins paths to it without cleaning them).
func rustupDir(env []string, key, inHome string) string {
	if v, _ := EnvLookup(env, key); v != "" {
		if !filepath.IsAbs(v) || v != filepath.Clean(v) {
			return ""
		}
		return v
	}
	home, _ := EnvLookup(env, "HOME")
	if !filepath.IsAbs(home) || home != filepath.Clean(home) {
		return ""
	}
	return filepath.Join(home, inHome)
}

// rustupSettings is what strobe reads of rustup's settings.toml.
type rustupSettings struct {
	Version          string            `toml:"version"`
	DefaultToolchain string            `toml:"default_toolchain"`
	Overrides        map[string]string `toml:"overrides"`
}

// rustupDefault is the toolchain rustup's proxy runs in dir when nothing
// but its default chooses one: the settings' default toolchain, installed
// under that name. "" when a directory override or a rust-toolchain file
// at or above dir chooses instead, as rustup walks up from the directory
// the proxy starts in (symbolic links resolved, as getcwd gives it), or
// when the settings are not the version this rustup writes.
func rustupDefault(rustupHome, dir string) string {
	b, err := os.ReadFile(filepath.Join(rustupHome, "settings.toml"))
	if err != nil {
		return ""
	}
	var s rustupSettings
	if toml.Unmarshal(b, &s) != nil || s.Version != "12" || s.DefaultToolchain == "" ||
		strings.ContainsAny(s.DefaultToolchain, `/\`) || strings.HasPrefix(s.DefaultToolchain, ".") {
		return ""
	}
	d, err := filepath.EvalSymlinks(dir)
	if err != nil || !filepath.IsAbs(d) {
		return ""
	}
	for a := range Ancestors(d) {
		if _, ok := s.Overrides[a]; ok {
			return ""
		}
		for _, f := range []string{"rust-toolchain", "rust-toolchain.toml"} {
			if _, err := os.Lstat(filepath.Join(a, f)); err == nil || !os.IsNotExist(err) {
				return ""
			}
		}
	}
	return s.DefaultToolchain
}

// rustupInsertPath is env's list variable key with p first, unless it is
// in the list already (rustup's env_var::insert_path, which compares
// paths as Rust does: "/a//b/" is "/a/b"). An empty variable is a list of
// one empty entry.
func rustupInsertPath(env []string, key, p string) string {
	old, set := EnvLookup(env, key)
	if !set {
		return p
	}
	for _, e := range strings.Split(old, ":") {
		if sameRustPath(e, p) {
			return old
		}
	}
	return p + ":" + old
}

// sameRustPath compares two paths by their components, as Rust's Path
// does: repeated and trailing slashes and "." after the first component
// make no difference; ".." does.
func sameRustPath(a, b string) bool {
	return slices.Equal(rustComponents(a), rustComponents(b))
}

func rustComponents(p string) []string {
	var out []string
	if strings.HasPrefix(p, "/") {
		out = append(out, "/")
	}
	for i, c := range strings.Split(p, "/") {
		if c == "" || c == "." && (i > 0 || strings.HasPrefix(p, "/")) {
			continue
		}
		out = append(out, c)
	}
	return out
}

// rustupVersions caches rustup's version by its binary (path, device,
// inode, size, modification time): in memory for the daemon, and in the
// user's cache directory for the CLI's runs, so that `rustup --version`
// (60 ms) runs once per rustup installed, not once per run.
var rustupVersions sync.Map

// rustupVersionLine reads the version from `rustup --version`'s first
// line: "rustup 1.29.0 (28d1352db 2026-03-05)".
var rustupVersionLine = lazyre.New(`^rustup (\d+\.\d+\.\d+)`)

// rustupVersion is the version of the rustup at path ("1.29.0"), "" when
// it cannot be read.
func rustupVersion(ctx context.Context, path string, env []string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	key := fmt.Sprintf("%s\x00%d\x00%d\x00%d\x00%d", path, st.Dev, st.Ino, fi.Size(), fi.ModTime().UnixNano())
	if v, ok := rustupVersions.Load(key); ok {
		return v.(string)
	}
	sum := sha256.Sum256([]byte(key))
	file := ""
	if cache, err := os.UserCacheDir(); err == nil && filepath.IsAbs(cache) {
		file = filepath.Join(cache, "strobe", "rustup", hex.EncodeToString(sum[:8]))
		if b, err := os.ReadFile(file); err == nil {
			if m := rustupVersionLine.FindSubmatch(b); m != nil {
				rustupVersions.Store(key, string(m[1]))
				return string(m[1])
			}
		}
	}
	out, _, err := RunTool(ctx, Tool{Env: env, Timeout: 10 * time.Second, MaxOutput: 4096}, path, "--version")
	m := rustupVersionLine.FindSubmatch(out)
	if err != nil || m == nil {
		return ""
	}
	v := string(m[1])
	rustupVersions.Store(key, v)
	if file != "" && os.MkdirAll(filepath.Dir(file), 0o700) == nil {
		if tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-"); err == nil {
			_, werr := tmp.WriteString("rustup " + v + "\n")
			if tmp.Close() != nil || werr != nil || os.Rename(tmp.Name(), file) != nil {
				os.Remove(tmp.Name())
			}
		}
	}
	return v
}
