package bench

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/ctest"
	"strobe/internal/testutil"
)

// BenchmarkCTestOverhead measures what the ctest adapter costs over ctest
// as a user runs it, on a generated CMake project whose 300 GoogleTest
// tests (3 files of 100) gtest_discover_tests makes 300 CTest tests, each
// run by CTest in a process of its own: the per-test cost is CTest's
// process start, and strobe's is reading two console lines per test and
// the JUnit report at the end. "raw" is `ctest --test-dir build` with its
// console to /dev/null; "strobe" is the adapter's plan (the tree found as
// without --command): the same with --output-on-failure, --no-tests=error
// and --output-junit, its console read line by line into the parser, in
// this process (planOverhead). Ratio of the medians; target at most 1.05.
func BenchmarkCTestOverhead(b *testing.B) {
	testutil.RequireTool(b, "cmake")
	testutil.RequireTool(b, "ctest")
	testutil.RequireTool(b, "g++")
	files := map[string]string{"CMakeLists.txt": `cmake_minimum_required(VERSION 3.14)
project(ctest300 CXX)
enable_testing()
find_package(GTest REQUIRED)
include(GoogleTest)
file(GLOB sources tests/*.cpp)
add_executable(bench_test ${sources})
target_link_libraries(bench_test GTest::gtest_main)
gtest_discover_tests(bench_test)
`}
	for f := range 3 {
		var s strings.Builder
		s.WriteString("#include <gtest/gtest.h>\n\n")
		for i := range 100 {
			fmt.Fprintf(&s, "TEST(Module%d, Case%d) { EXPECT_EQ(%d + 1, %d); }\n", f, i, i, i+1)
		}
		files[fmt.Sprintf("tests/m%02d_test.cpp", f)] = s.String()
	}
	dir := cacheDir(b, "ctest-300", files)
	build := filepath.Join(dir, "build")
	if _, err := os.Stat(filepath.Join(build, "bench_test")); err != nil {
		for _, argv := range [][]string{{"cmake", "-S", dir, "-B", build, "-DCMAKE_BUILD_TYPE=Release"}, {"cmake", "--build", build, "-j2"}} {
			if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
			}
		}
	}
	planOverhead(b, planCase{dir: dir, adapter: ctest.New(), raw: []string{"ctest", "--test-dir", "build"}, tests: 300})
}
