package bench

import (
	"os"
	"path/filepath"
	"strings"
	"strobe/adapters/kit/python"
	"testing"
	"time"

	"strobe/internal/testutil"
	"strobe/report"
	"strobe/runner"
	"strobe/stuck"
)

// The stuck detector on Python (issue 9 §4):
//
//   - BenchmarkStuckPythonVerdictLatency: from the moment
//     stuck/testdata/python/hang.py blocks on two threading.Locks or starts
//     spinning (its marker) to strobe's answer, median over
//     STROBE_BENCH_STUCK_RUNS runs, with the Python frames read from the
//     faulthandler dump strobe's plugin registers and from py-spy (target:
//     at most 3 s).
//   - BenchmarkStuckPythonFalsePositives: a silent 9 s sleep and 10 s of
//     silent pure-Python computation (a recursive fib, a sieve), the
//     fixtures of one tool at a time side by side, beside two CPU hogs,
//     STROBE_BENCH_STUCK_REPS times for each tool (9: 54 runs; target: 0
//     verdicts).

// stuckPython runs hang.py with args through the generic adapter; with
// faulthandler, the process runs strobe's registration first, as strobe's
// pytest plugin does; otherwise the Python frames come from py-spy.
func stuckPython(b *testing.B, tool string, args ...string) runner.Request {
	b.Helper()
	py := testutil.RequireTool(b, "python3")
	env := map[string]string{}
	switch tool {
	case stuck.ToolFaulthandler:
		reg := filepath.Join(b.TempDir(), "register.py")
		if err := os.WriteFile(reg, python.StacksModule, 0o644); err != nil {
			b.Fatal(err)
		}
		env["STROBE_PY_REGISTER"] = reg
	case stuck.ToolPySpy:
		testutil.RequireTool(b, "py-spy")
	}
	return runner.Request{ProjectRoot: filepath.Join(testutil.Root(), "stuck", "testdata", "python"),
		Command: py + " hang.py " + strings.Join(args, " "), Env: env}
}

var pythonTools = []string{stuck.ToolFaulthandler, stuck.ToolPySpy}

func BenchmarkStuckPythonVerdictLatency(b *testing.B) {
	runs := stuckEnvInt("STROBE_BENCH_STUCK_RUNS", 5)
	for _, tool := range pythonTools {
		for _, mode := range []string{"deadlock", "busy"} {
			b.Run(tool+"-"+mode, func(b *testing.B) {
				req := stuckPython(b, tool, mode)
				for i := 0; i < b.N; i++ {
					var lat []time.Duration
					for r := 0; r < runs; r++ {
						resp, done, marked := stuckRun(b, req)
						if resp.Status != report.Stuck {
							b.Fatalf("status %s, want stuck (%+v)", resp.Status, resp.Crash)
						}
						if marked.IsZero() {
							b.Fatal("the fixture wrote no marker")
						}
						if txt := strings.Join(resp.Stuck[0].Threads[0].Stack, "\n"); !strings.Contains(txt, "hang.py:") {
							b.Fatalf("no Python frames in the stacks (%s):\n%s", resp.Stuck[0].Diagnosis, txt)
						}
						lat = append(lat, done.Sub(marked))
					}
					m := median(lat)
					b.ReportMetric(m.Seconds(), "s-median")
					record(b, "verdict latency median %.2f s over %d runs (min %.2f, max %.2f; marker to answer; load %s)",
						m.Seconds(), runs, minDur(lat).Seconds(), maxDur(lat).Seconds(), loadavg())
				}
			})
		}
	}
}

func BenchmarkStuckPythonFalsePositives(b *testing.B) {
	reps := stuckEnvInt("STROBE_BENCH_STUCK_REPS", 9)
	fixtures := [][]string{{"sleep", "9"}, {"fib", "10"}, {"sieve", "10"}}
	hogs := stuckHogs(b, 2)
	for i := 0; i < b.N; i++ {
		// One tool at a time, its fixtures at once.
		var wrong []string
		runs := 0
		for _, tool := range pythonTools {
			var names []string
			var reqs []runner.Request
			for _, args := range fixtures {
				names = append(names, tool+" "+args[0])
				reqs = append(reqs, stuckPython(b, tool, args...))
			}
			wrong = append(wrong, falseVerdicts(b, names, reqs, reps)...)
			runs += reps * len(reqs)
		}
		b.ReportMetric(float64(len(wrong)), "false-verdicts")
		record(b, "false verdicts: %d of %d runs (%d Python fixtures × %d × %d tools, beside %d CPU hogs; load %s)",
			len(wrong), runs, len(fixtures), reps, len(pythonTools), hogs, loadavg())
	}
}
