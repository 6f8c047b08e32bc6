package kit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters/adapterstest"
	"strobe/internal/testutil"
)

// TestStaleNote: a source edited after the test binary was built (or one
// that no longer compiles, which leaves the old binary) makes the run's
// results the old code's, and the note says so with the rebuild command
// (cxxopts' test/options.cpp broken to not compile: strobe ran the old
// binary and said nothing). A build newer than every source, a build
// outside the project, and a build tree judged by its newest executable.
func TestStaleNote(t *testing.T) {
	root := t.TempDir()
	old := time.Now().Add(-time.Hour)
	write := func(rel string, mode os.FileMode, at time.Time) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("CMakeLists.txt", 0o644, old.Add(-time.Hour))
	write("test/options.cpp", 0o644, old.Add(-time.Hour))
	write("build/CMakeCache.txt", 0o644, old)
	bin := write("build/test/options_test", 0o755, old)
	write("build/test/generated.cpp", 0o644, time.Now()) // in the build tree: not a source
	write("README.md", 0o644, time.Now())                // not a source either

	if n := StaleNote(root, bin); n != "" {
		t.Errorf("up-to-date build: note %q", n)
	}
	write("test/options.cpp", 0o644, time.Now())
	want := "test/options.cpp changed after build/test/options_test was built: this run tested the old build; rebuild (cmake --build build) and rerun"
	if n := StaleNote(root, bin); n != want {
		t.Errorf("note %q, want %q", n, want)
	}
	if n := StaleNote(root, filepath.Join(root, "build")); !strings.HasPrefix(n, "test/options.cpp changed after build/test/options_test was built") {
		t.Errorf("tree note %q", n)
	}
	if n := StaleNote(root, filepath.Join(t.TempDir(), "bin")); n != "" {
		t.Errorf("a build outside the project: note %q", n)
	}

	// A CMakeLists.txt edited after the binary: stale until a build
	// reruns CMake (its check_cache), which relinks nothing when the
	// edit was an add_test line; the note stayed however often one
	// rebuilt (found on a GoogleTest project testing nlohmann-json).
	write("test/options.cpp", 0o644, old.Add(-time.Hour))
	edit := old.Add(30 * time.Minute)
	write("CMakeLists.txt", 0o644, edit)
	want = "CMakeLists.txt changed after build/test/options_test was built: this run tested the old build; rebuild (cmake --build build) and rerun"
	if n := StaleNote(root, bin); n != want {
		t.Errorf("CMakeLists.txt edited, CMake not rerun: note %q, want %q", n, want)
	}
	write("build/CMakeFiles/cmake.check_cache", 0o644, edit.Add(time.Minute))
	if n := StaleNote(root, bin); n != "" {
		t.Errorf("CMakeLists.txt edited, CMake rerun since: note %q", n)
	}
}

// TestStaleNoteFailedCompile builds a real CMake project of two test
// executables, then breaks a_test's source so that it does not compile
// and rebuilds b_test alone, as a build that goes on after one target's
// error leaves it: the newest executable (b_test) is newer than the edit,
// and the note came only from the executables, so there was none while
// ctest ran the old a_test. The object file of a.cc, older than a.cc,
// says it.
func TestStaleNoteFailedCompile(t *testing.T) {
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "c++")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"CMakeLists.txt":       "cmake_minimum_required(VERSION 3.16)\nproject(stale CXX)\nenable_testing()\nadd_subdirectory(tests)\n",
		"tests/CMakeLists.txt": "add_executable(a_test a.cc)\nadd_executable(b_test b.cc ../src/shared.cc)\nadd_test(NAME a COMMAND a_test)\nadd_test(NAME b COMMAND b_test)\n",
		"tests/a.cc":           "int main() { return 0; }\n",
		"tests/b.cc":           "int shared(); int main() { return shared(); }\n",
		"src/shared.cc":        "int shared() { return 0; }\n",
	})
	run := func(args ...string) error { return cmakeIn(t, root, args...) }
	if run("-S", ".", "-B", "build") != nil || run("--build", "build") != nil {
		t.Fatal("the project did not build")
	}
	build := filepath.Join(root, "build")
	if n := StaleNote(root, build); n != "" {
		t.Fatalf("up-to-date build: note %q", n)
	}
	later := time.Now().Add(2 * time.Second) // past the objects' times, whatever the clock's grain
	for rel, body := range map[string]string{"tests/a.cc": "int main() { return nope; }\n", "tests/b.cc": "int shared(); int main() { return shared() + 0; }\n"} {
		p := filepath.Join(root, rel)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, later, later)
	}
	if run("--build", "build", "--target", "a_test") == nil {
		t.Fatal("a_test built with a.cc broken")
	}
	time.Sleep(10 * time.Millisecond)
	if run("--build", "build", "--target", "b_test") != nil {
		t.Fatal("b_test did not build")
	}
	// b_test is newer than every source now (its link came after the
	// edits' times); a_test is the old one.
	if bi, err := os.Stat(filepath.Join(build, "tests", "b_test")); err != nil || !bi.ModTime().After(later) {
		os.Chtimes(filepath.Join(build, "tests", "b_test"), later.Add(time.Second), later.Add(time.Second))
	}
	want := "tests/a.cc changed after it was last compiled into a_test: this run tested the old build; rebuild (cmake --build build) and rerun"
	if n := StaleNote(root, build); n != want {
		t.Errorf("note %q, want %q", n, want)
	}
	// A test binary is judged by its own target's objects alone.
	if n := StaleNote(root, filepath.Join(build, "tests", "b_test")); strings.Contains(n, "a.cc") {
		t.Errorf("b_test's note %q names a_test's source", n)
	}
	if n := StaleNote(root, filepath.Join(build, "tests", "a_test")); n != want {
		t.Errorf("a_test's note %q, want %q", n, want)
	}
	// A source outside the target's directory (../src) maps back too.
	shared := filepath.Join(root, "src", "shared.cc")
	much := later.Add(time.Hour)
	os.Chtimes(shared, much, much)
	if n := StaleNote(root, build); !strings.HasPrefix(n, "src/shared.cc changed after it was last compiled into b_test") {
		t.Errorf("note %q, want src/shared.cc's, the newest change", n)
	}
}

// TestStaleNoteOtherTarget: a test binary is not called the old build
// when only another target's source changed since it was built, and that
// target was rebuilt (a Catch2 binary beside a GoogleTest one: every run
// of strutil_catch said lru_test.cpp changed, and no build made it go).
func TestStaleNoteOtherTarget(t *testing.T) {
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "c++")
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(two CXX)\nadd_executable(a_test a.cc)\nadd_executable(b_test b.cc)\n",
		"a.cc":           "int main() { return 0; }\n",
		"b.cc":           "int main() { return 0; }\n",
	})
	build := func(args ...string) {
		t.Helper()
		if cmakeIn(t, root, args...) != nil {
			t.Fatalf("cmake %s failed", strings.Join(args, " "))
		}
	}
	build("-S", ".", "-B", "build")
	build("--build", "build")
	later := time.Now().Add(2 * time.Second)
	b := filepath.Join(root, "b.cc")
	if err := os.WriteFile(b, []byte("int main() { return 1 - 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(b, later, later)
	build("--build", "build", "--target", "b_test")
	if n := StaleNote(root, filepath.Join(root, "build", "a_test")); n != "" {
		t.Errorf("a_test's note %q: only b_test's source changed, and b_test was rebuilt", n)
	}
}

// TestStaleNoteHeaders: a header counts for a test binary when it was
// compiled into it, as the compiler's depfiles say, into its own objects
// or those of a library it links: CMake's Makefiles keep them beside the
// objects (<obj>.o.d), Ninja in .ninja_deps. A header no object of it
// includes is no news of it: googletest's samples, prime_tables.h edited
// and rebuilt into sample6 alone, made sample1_unittest "the old build"
// on every run. Without depfiles any header newer than the binary
// counts.
func TestStaleNoteHeaders(t *testing.T) {
	testutil.RequireTool(t, "cmake")
	testutil.RequireTool(t, "c++")
	for _, gen := range []struct{ name, deps string }{
		{"Unix Makefiles", "build/CMakeFiles/*.dir/*.o.d"},
		{"Ninja", "build/.ninja_deps"},
	} {
		t.Run(gen.name, func(t *testing.T) {
			if gen.name == "Ninja" {
				testutil.RequireTool(t, "ninja")
			}
			staleHeaders(t, gen.name, gen.deps)
		})
	}
}

// staleHeaders builds a project of two test binaries, one linking a
// library, with generator, and checks which header edits make which
// binary the old build; then removes the depfiles (the glob deps) and
// checks that any header counts.
func staleHeaders(t *testing.T, generator, deps string) {
	root := t.TempDir()
	adapterstest.WriteFiles(t, root, map[string]string{
		"CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(headers CXX)\nadd_library(calc STATIC lib/calc.cc)\n" +
			"add_executable(a_test a.cc)\ntarget_link_libraries(a_test calc)\nadd_executable(b_test b.cc)\n",
		"a.cc":        "#include \"a.h\"\nint calc();\nint main() { return calc() - A; }\n",
		"a.h":         "#define A 0\n",
		"lib/calc.cc": "#include \"calc.h\"\nint calc() { return CALC; }\n",
		"lib/calc.h":  "#define CALC 0\n",
		"b.cc":        "#include \"b.h\"\nint main() { return B; }\n",
		"b.h":         "#define B 0\n",
	})
	if cmakeIn(t, root, "-G", generator, "-S", ".", "-B", "build") != nil || cmakeIn(t, root, "--build", "build") != nil {
		t.Fatal("the project did not build")
	}
	depfiles, _ := filepath.Glob(filepath.Join(root, deps))
	if len(depfiles) == 0 {
		t.Skipf("this CMake's %s generator keeps no depfiles at %s", generator, deps)
	}
	a := filepath.Join(root, "build", "a_test")
	if n := StaleNote(root, a); n != "" {
		t.Fatalf("up-to-date build: note %q", n)
	}
	touch := func(rel string, at time.Time) {
		t.Helper()
		if err := os.Chtimes(filepath.Join(root, rel), at, at); err != nil {
			t.Fatal(err)
		}
	}
	later := time.Now().Add(time.Hour)
	// b.h is b_test's alone.
	touch("b.h", later)
	if n := StaleNote(root, a); n != "" {
		t.Errorf("a_test's note %q: b.h is not compiled into it", n)
	}
	if n, want := StaleNote(root, filepath.Join(root, "build", "b_test")), "b.h changed after it was last compiled into b_test"; !strings.HasPrefix(n, want) {
		t.Errorf("b_test's note %q, want %q", n, want)
	}
	// a.h is a_test's own; lib/calc.h and lib/calc.cc the library's it
	// links.
	for _, tc := range []struct{ file, target string }{{"a.h", "a_test"}, {"lib/calc.h", "calc"}, {"lib/calc.cc", "calc"}} {
		touch(tc.file, later.Add(time.Minute))
		want := tc.file + " changed after it was last compiled into " + tc.target + ": this run tested the old build; rebuild (cmake --build build) and rerun"
		if n := StaleNote(root, a); n != want {
			t.Errorf("%s edited: a_test's note %q, want %q", tc.file, n, want)
		}
		touch(tc.file, time.Now().Add(-time.Hour))
	}
	// Without the depfiles, which header the binary includes is not
	// known: b.h counts.
	for _, d := range depfiles {
		os.Remove(d)
	}
	if n := StaleNote(root, a); !strings.HasPrefix(n, "b.h changed after build/a_test was built") {
		t.Errorf("without depfiles: a_test's note %q, want b.h's", n)
	}
}

// cmakeIn runs cmake with args in root, and logs what it said when it
// failed.
func cmakeIn(t *testing.T, root string, args ...string) error {
	t.Helper()
	cmd := exec.Command("cmake", args...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("cmake %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return err
}
