package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/adapters/gtest"
	"strobe/adapters/kit/gdbtrace/gdbtracetest"
	"strobe/internal/testutil"
)

// BenchmarkTraceGdb measures the native tracer on the gtest adapter's
// traced fixture (a Debug build): Calc.Loop calls calc::apply 1,000 times,
// run untraced and traced with calc::apply as the pattern, alternating.
// s-added is the median traced run's wall-clock time over the untraced
// one's (target: at most 2 s); events/s is the 2,000 events (1,000 enters,
// 1,000 exits) over that added time; cpu-s-added is the same in CPU time
// of gdb and the test binary.
func BenchmarkTraceGdb(b *testing.B) {
	testutil.RequireTool(b, "gdb")
	testutil.RequireTool(b, "cmake")
	testutil.RequireTool(b, "g++")
	testutil.RequireHeader(b, "/usr/include/gtest/gtest.h", "libgtest-dev")
	src, _ := filepath.Abs(filepath.Join("..", "adapters", "gtest", "testdata", "traced"))
	// Every file of the fixture: a source its CMakeLists gained later
	// (kinds.cpp) must come too.
	entries, err := os.ReadDir(src)
	if err != nil {
		b.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	dir := cacheDir(b, "trace-gdb", files)
	bin := filepath.Join(dir, "build", "traced_test")
	if _, err := os.Stat(bin); err != nil {
		for _, argv := range [][]string{{"cmake", "-S", dir, "-B", filepath.Join(dir, "build"), "-DCMAKE_BUILD_TYPE=Debug"}, {"cmake", "--build", filepath.Join(dir, "build"), "-j2"}} {
			if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
			}
		}
	}
	b.Setenv("TRACED_LOOP", "1000")
	req := adapters.Request{ProjectRoot: dir, Command: []string{bin}, Test: "Calc.Loop"}
	var untraced, traced, untracedCPU, tracedCPU []time.Duration
	for range max(b.N, 3) {
		start := time.Now()
		r := adapterstest.Run(b, gtest.New(), req)
		untraced = append(untraced, time.Since(start))
		untracedCPU = append(untracedCPU, r.CPU)
		treq := req
		treq.Trace = gdbtracetest.Spec(b, dir, []string{"calc::apply"})
		start = time.Now()
		r = adapterstest.Run(b, gtest.New(), treq)
		if r.Exit.Code != 0 {
			b.Fatalf("traced: exit %+v", r.Exit)
		}
		traced = append(traced, time.Since(start))
		tracedCPU = append(tracedCPU, r.CPU)
		if evs, _ := gdbtracetest.Events(b, treq.Trace.Out); len(evs) != 2000 {
			b.Fatalf("%d events, want 2,000", len(evs))
		}
	}
	added := median(traced) - median(untraced)
	b.ReportMetric(added.Seconds(), "s-added")
	b.ReportMetric(2000/added.Seconds(), "events/s")
	// CPU time (gdb and the test binary) reads the cost on a busy machine.
	b.ReportMetric((median(tracedCPU) - median(untracedCPU)).Seconds(), "cpu-s-added")
}
