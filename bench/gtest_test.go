package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/gtest"
	"strobe/internal/testutil"
)

// BenchmarkGTestOverhead measures what the gtest adapter costs over the
// test binary as a user runs it, on a generated GoogleTest binary of 2,000
// passing tests (10 files of 200), alternating the two, ratio of the
// medians (target: at most 1.05). Each test sums STROBE_BENCH_WORK
// numbers: "tiny" tests (20,000: about 10 µs each) show the per-test cost
// alone, which GoogleTest's own JSON writer and a pipe instead of
// /dev/null dominate; "1ms" tests (2,000,000) are a suite doing work. "raw"
// is build/bench_test with its console to /dev/null; "strobe" is the
// adapter's plan (found in the build tree, as without --command): the
// binary with --gtest_output=json and --gtest_color=no, its console read
// line by line into the parser and the JSON report read at the end, in
// this process (planOverhead).
func BenchmarkGTestOverhead(b *testing.B) {
	testutil.RequireTool(b, "cmake")
	testutil.RequireTool(b, "g++")
	files := map[string]string{"CMakeLists.txt": `cmake_minimum_required(VERSION 3.14)
project(bench2000 CXX)
find_package(GTest REQUIRED)
file(GLOB sources tests/*.cpp)
add_executable(bench_test ${sources})
target_link_libraries(bench_test GTest::gtest_main)
`}
	for f := range 10 {
		var s strings.Builder
		s.WriteString("#include <gtest/gtest.h>\n\n#include <cstdlib>\n\nstatic long work() {\n  static long n = std::atol(std::getenv(\"STROBE_BENCH_WORK\") ? std::getenv(\"STROBE_BENCH_WORK\") : \"20000\");\n  volatile long s = 0;\n  for (long i = 0; i < n; i++) s += i;\n  return s - n * (n - 1) / 2;\n}\n\n")
		for i := range 200 {
			fmt.Fprintf(&s, "TEST(Module%d, Case%d) { EXPECT_EQ(work() + %d, %d); }\n", f, i, i, i)
		}
		files[fmt.Sprintf("tests/m%02d_test.cpp", f)] = s.String()
	}
	dir := cacheDir(b, "gtest-2000", files)
	bin := filepath.Join(dir, "build", "bench_test")
	if _, err := os.Stat(bin); err != nil {
		for _, argv := range [][]string{{"cmake", "-S", dir, "-B", filepath.Join(dir, "build"), "-DCMAKE_BUILD_TYPE=Release"}, {"cmake", "--build", filepath.Join(dir, "build"), "-j2"}} {
			if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
			}
		}
	}
	for _, w := range []struct{ name, work string }{{"tiny", "20000"}, {"1ms", "2000000"}} {
		b.Run(w.name, func(b *testing.B) {
			b.Setenv("STROBE_BENCH_WORK", w.work)
			planOverhead(b, planCase{dir: dir, adapter: gtest.New(), raw: []string{bin}, tests: 2000})
		})
	}
}
