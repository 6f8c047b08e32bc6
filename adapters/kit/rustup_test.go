package kit

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fakeRustup lays out a rustup installation in a new HOME: ~/.cargo/bin
// with a rustup script that prints version (and counts its runs in
// home/runs) and cargo, a symbolic link to it; ~/.rustup with settings
// (its default toolchain stable-x86_64-unknown-linux-gnu) and that
// toolchain installed. It returns HOME and the toolchain's directory.
func fakeRustup(t *testing.T, version, settings string) (home, toolchain string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("rustup's proxy is bypassed on Linux alone")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	home = t.TempDir()
	bin := filepath.Join(home, ".cargo", "bin")
	toolchain = filepath.Join(home, ".rustup", "toolchains", "stable-x86_64-unknown-linux-gnu")
	for _, d := range []string{bin, filepath.Join(toolchain, "bin"), filepath.Join(toolchain, "lib")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := "#!/bin/sh\necho run >> " + filepath.Join(home, "runs") + "\necho 'rustup " + version + " (28d1352db 2026-03-05)'\n"
	write(t, filepath.Join(bin, "rustup"), script, 0o755)
	if err := os.Symlink("rustup", filepath.Join(bin, "cargo")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(toolchain, "bin", "cargo"), "#!/bin/sh\n", 0o755)
	write(t, filepath.Join(home, ".rustup", "settings.toml"), settings, 0o644)
	return home, toolchain
}

func write(t *testing.T, path, s string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
}

const rustupSettingsFile = `version = "12"
default_toolchain = "stable-x86_64-unknown-linux-gnu"
profile = "default"

[overrides]
`

// TestCargoDirect checks the toolchain's cargo and the environment rustup
// 1.29's proxy would give it, and that every case the proxy decides
// otherwise, or that strobe has not checked, keeps the proxy.
func TestCargoDirect(t *testing.T) {
	home, tc := fakeRustup(t, "1.29.0", rustupSettingsFile)
	cargoBin := filepath.Join(home, ".cargo", "bin")
	base := []string{"HOME=" + home, "PATH=" + cargoBin + ":/usr/bin:/bin"}
	proj := filepath.Join(home, "work", "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	want := func(changes ...string) []string {
		add := []string{
			"LD_LIBRARY_PATH=" + tc + "/lib",
			"CARGO_HOME=" + home + "/.cargo",
			"RUST_RECURSION_COUNT=1",
			"RUSTUP_TOOLCHAIN=stable-x86_64-unknown-linux-gnu",
			"RUSTUP_HOME=" + home + "/.rustup",
			"PATH=" + cargoBin + ":/usr/bin:/bin",
			"RUSTUP_TOOLCHAIN_SOURCE=default",
		}
		for _, c := range changes {
			k, _, _ := strings.Cut(c, "=")
			for i := range add {
				if strings.HasPrefix(add[i], k+"=") {
					add[i] = c
				}
			}
		}
		return add
	}
	for _, c := range []struct {
		name string
		env  []string
		want []string // nil: the proxy stays
	}{
		{"default toolchain", nil, want()},
		{"loader path set", []string{"LD_LIBRARY_PATH=/opt/lib"}, want("LD_LIBRARY_PATH=" + tc + "/lib:/opt/lib")},
		{"loader path has the lib already", []string{"LD_LIBRARY_PATH=/opt/lib:" + tc + "//lib/"}, want("LD_LIBRARY_PATH=/opt/lib:" + tc + "//lib/")},
		{"loader path empty", []string{"LD_LIBRARY_PATH="}, want("LD_LIBRARY_PATH=" + tc + "/lib:")},
		{"cargo's bin later on PATH", []string{"PATH=/usr/bin:" + cargoBin}, want("PATH=/usr/bin:" + cargoBin)},
		{"another CARGO_HOME", []string{"CARGO_HOME=/srv/cargo"}, want("CARGO_HOME=/srv/cargo", "PATH=/srv/cargo/bin:"+cargoBin+":/usr/bin:/bin")},
		{"nested once", []string{"RUST_RECURSION_COUNT=3"}, want("RUST_RECURSION_COUNT=4")},
		{"count unreadable", []string{"RUST_RECURSION_COUNT=x"}, want()},
		{"nested too deep", []string{"RUST_RECURSION_COUNT=20"}, nil},
		{"toolchain named", []string{"RUSTUP_TOOLCHAIN=nightly"}, nil},
		{"toolchain named empty", []string{"RUSTUP_TOOLCHAIN="}, nil},
		{"run by cargo", []string{"CARGO=/x/cargo"}, nil},
		{"relative CARGO_HOME", []string{"CARGO_HOME=.cargo"}, nil},
		{"RUSTUP_HOME unclean", []string{"RUSTUP_HOME=" + home + "/.rustup/"}, nil},
		{"no HOME", []string{"HOME="}, nil},
		{"cargo not rustup's", []string{"PATH=/usr/bin:/bin"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cargo, add := CargoDirect(t.Context(), proj, append(slices.Clone(base), c.env...))
			if c.want == nil {
				if cargo != "" {
					t.Fatalf("ran %s with %q, want rustup's proxy", cargo, add)
				}
				return
			}
			if cargo != filepath.Join(tc, "bin", "cargo") || !slices.Equal(add, c.want) {
				t.Fatalf("got %s with\n%q\nwant %s/bin/cargo with\n%q", cargo, add, tc, c.want)
			}
		})
	}

	// What the proxy reads in the directory and above it.
	for _, c := range []struct {
		name, file, content string
	}{
		{"toolchain file here", filepath.Join(proj, "rust-toolchain.toml"), "[toolchain]\nchannel = \"nightly\"\n"},
		{"legacy toolchain file above", filepath.Join(home, "work", "rust-toolchain"), "nightly\n"},
		{"directory override above", filepath.Join(home, ".rustup", "settings.toml"), rustupSettingsFile + "\"" + filepath.Join(home, "work") + "\" = \"nightly-x86_64-unknown-linux-gnu\"\n"},
		{"partial default name", filepath.Join(home, ".rustup", "settings.toml"), strings.Replace(rustupSettingsFile, "stable-x86_64-unknown-linux-gnu", "stable", 1)},
		{"default not installed", filepath.Join(home, ".rustup", "settings.toml"), strings.Replace(rustupSettingsFile, "stable-x86_64", "beta-x86_64", 1)},
		{"no default", filepath.Join(home, ".rustup", "settings.toml"), "version = \"12\"\n"},
		{"settings of another version", filepath.Join(home, ".rustup", "settings.toml"), strings.Replace(rustupSettingsFile, `"12"`, `"11"`, 1)},
		{"settings unreadable", filepath.Join(home, ".rustup", "settings.toml"), "version = \n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			old, err := os.ReadFile(c.file)
			t.Cleanup(func() {
				if err == nil {
					write(t, c.file, string(old), 0o644)
				} else {
					os.Remove(c.file)
				}
			})
			write(t, c.file, c.content, 0o644)
			if cargo, add := CargoDirect(t.Context(), proj, base); cargo != "" {
				t.Fatalf("ran %s with %q, want rustup's proxy", cargo, add)
			}
		})
	}
	t.Run("override elsewhere", func(t *testing.T) {
		f := filepath.Join(home, ".rustup", "settings.toml")
		t.Cleanup(func() { write(t, f, rustupSettingsFile, 0o644) })
		write(t, f, rustupSettingsFile+"\""+filepath.Join(home, "other")+"\" = \"nightly-x86_64-unknown-linux-gnu\"\n", 0o644)
		if cargo, _ := CargoDirect(t.Context(), proj, base); cargo == "" {
			t.Fatal("kept the proxy for an override of another directory")
		}
	})
	t.Run("through a symbolic link", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link")
		if err := os.Symlink(proj, link); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(home, "work", "rust-toolchain"), "nightly\n", 0o644)
		t.Cleanup(func() { os.Remove(filepath.Join(home, "work", "rust-toolchain")) })
		if cargo, _ := CargoDirect(t.Context(), link, base); cargo != "" {
			t.Fatal("missed the toolchain file above the directory the link leads to")
		}
	})
}

// TestCargoDirectVersion checks that a rustup other than 1.29 keeps the
// proxy, and that its version is asked once per rustup, then read from
// memory and from strobe's cache directory.
func TestCargoDirectVersion(t *testing.T) {
	home, _ := fakeRustup(t, "1.28.2", rustupSettingsFile)
	env := []string{"HOME=" + home, "PATH=" + filepath.Join(home, ".cargo", "bin") + ":/usr/bin:/bin"}
	if cargo, _ := CargoDirect(t.Context(), home, env); cargo != "" {
		t.Fatalf("ran %s under rustup 1.28.2, whose proxy strobe has not checked", cargo)
	}

	home, _ = fakeRustup(t, "1.29.0", rustupSettingsFile)
	env = []string{"HOME=" + home, "PATH=" + filepath.Join(home, ".cargo", "bin") + ":/usr/bin:/bin"}
	runs := func() int {
		b, _ := os.ReadFile(filepath.Join(home, "runs"))
		return strings.Count(string(b), "run")
	}
	for i := range 3 {
		if i == 2 {
			rustupVersions = sync.Map{} // a new process: the cache directory's
		}
		if cargo, _ := CargoDirect(t.Context(), home, env); cargo == "" {
			t.Fatalf("call %d kept the proxy", i+1)
		}
		if n := runs(); n != 1 {
			t.Fatalf("after call %d rustup --version ran %d times, want once", i+1, n)
		}
	}
}

func TestSameRustPath(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"/a/b", "/a/b", true},
		{"/a//b/", "/a/b", true},
		{"/a/./b", "/a/b", true},
		{"/a/../b", "/b", false},
		{"a/b", "/a/b", false},
		{"./a", "a", false},
		{"", "/a", false},
		{"", "", true},
	} {
		if got := sameRustPath(c.a, c.b); got != c.same {
			t.Errorf("sameRustPath(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
