package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"strobe/daemon"
	"strobe/report"
	"strobe/runner"
)

const (
	// daemonRounds is how many times each daemon benchmark measures.
	daemonRounds = 15
	// daemonFirstAnswerTarget bounds the median time from no daemon to the
	// first answer of `strobe mcp`.
	daemonFirstAnswerTarget = 150 * time.Millisecond
	// daemonOverheadTarget bounds what the daemon adds to `strobe test`.
	daemonOverheadTarget = 30 * time.Millisecond
)

// daemonHome is a fresh STROBE_HOME, short enough for a socket path; the
// daemon in it is stopped at the end.
func daemonHome(b *testing.B) string {
	b.Helper()
	h, err := os.MkdirTemp("/tmp", "sbh")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		daemonStop(b, h)
		os.RemoveAll(h)
	})
	return h
}

// daemonStop runs `strobe stop` for home and waits until its daemon is gone.
func daemonStop(b *testing.B, home string) {
	b.Helper()
	cmd := exec.Command(strobeBin(b), "stop")
	cmd.Env = append(os.Environ(), "STROBE_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Errorf("strobe stop: %v\n%s", err, out)
	}
}

// BenchmarkDaemonFirstAnswer measures, with no daemon running, the time
// from starting `strobe mcp` to the answer of its first request
// (initialize, protocol 2025-11-25), the daemon's auto-start included: what
// an agent waits for when it starts strobe. Each round has a fresh
// STROBE_HOME and stops its daemon after.
func BenchmarkDaemonFirstAnswer(b *testing.B) {
	bin := strobeBin(b)
	var ds []time.Duration
	for range daemonRounds {
		home, err := os.MkdirTemp("/tmp", "sbh")
		if err != nil {
			b.Fatal(err)
		}
		cmd := exec.Command(bin, "mcp")
		cmd.Env = append(os.Environ(), "STROBE_HOME="+home)
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		start := time.Now()
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		took := time.Since(start)
		if err != nil {
			b.Fatalf("strobe mcp: %v", err)
		}
		if cs.InitializeResult().ServerInfo.Name != "strobe" {
			b.Fatalf("answered by %+v", cs.InitializeResult().ServerInfo)
		}
		ds = append(ds, took)
		cs.Close()
		daemonStop(b, home)
		os.RemoveAll(home)
	}
	med := median(ds)
	b.ReportMetric(ms(med), "median-ms")
	verdict := "met"
	if med > daemonFirstAnswerTarget {
		verdict = "MISSED"
	}
	b.Logf("first answers: %v", ds)
	record(b, "no daemon to the first answer of strobe mcp: median %.0f ms, min %.0f, max %.0f (%d rounds, load %s; target <= %.0f ms: %s)",
		ms(med), ms(minDur(ds)), ms(maxDur(ds)), len(ds), loadavg(), ms(daemonFirstAnswerTarget), verdict)
}

func minDur(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = min(m, d)
	}
	return m
}

func maxDur(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// BenchmarkDaemonOverhead compares `strobe test DIR --json` through a warm
// daemon with `--no-daemon` on a small passing Go suite (20 tests, go's
// test cache warm, so the suite itself takes little), alternated in one
// run: the median of the differences of each pair, and the difference of
// the medians.
func BenchmarkDaemonOverhead(b *testing.B) {
	bin := strobeBin(b)
	home := daemonHome(b)
	dir := daemonSuite(b)
	env := []string{"STROBE_HOME=" + home}
	run := func(extra ...string) time.Duration {
		r, err := timed(dir, env, true, append([]string{bin, "test", dir, "--json"}, extra...)...)
		if err != nil {
			b.Fatal(err)
		}
		var resp report.Response
		if err := json.Unmarshal(r.stdout, &resp); err != nil || resp.Status != report.Passed {
			b.Fatalf("strobe test %v: %v\n%s\n%s", extra, err, r.stdout, r.stderr)
		}
		return r.wall
	}
	// Warm up: go's build and test caches, and the daemon.
	for range 2 {
		run()
		run("--no-daemon")
	}
	var through, inproc, diffs []time.Duration
	for i := range daemonRounds {
		var d, n time.Duration
		if i%2 == 0 {
			d, n = run(), run("--no-daemon")
		} else {
			n, d = run("--no-daemon"), run()
		}
		through, inproc, diffs = append(through, d), append(inproc, n), append(diffs, d-n)
	}
	medDiff := median(diffs)
	diffMed := median(through) - median(inproc)
	b.ReportMetric(ms(median(through)), "daemon-ms")
	b.ReportMetric(ms(median(inproc)), "no-daemon-ms")
	b.ReportMetric(ms(medDiff), "added-ms")
	verdict := "met"
	if medDiff > daemonOverheadTarget {
		verdict = "MISSED"
	}
	b.Logf("through the daemon %v\nin process %v", through, inproc)
	record(b, "strobe test through the daemon %.1f ms vs --no-daemon %.1f ms at the median: +%.1f ms median per pair, +%.1f ms of the medians (20-test go suite, %d pairs, load %s; target <= %.0f ms: %s)",
		ms(median(through)), ms(median(inproc)), ms(medDiff), ms(diffMed), daemonRounds, loadavg(), ms(daemonOverheadTarget), verdict)
}

// daemonSuite is a generated Go module of 20 passing tests.
func daemonSuite(b *testing.B) string {
	files := map[string]string{"go.mod": "module example.com/daemonbench\n\ngo 1.22\n"}
	var src strings.Builder
	src.WriteString("package p\n\nimport \"testing\"\n")
	for i := range 20 {
		fmt.Fprintf(&src, "\nfunc TestSmall%02d(t *testing.T) {\n\tif %d+1 != %d {\n\t\tt.Fatal(\"math\")\n\t}\n}\n", i, i, i+1)
	}
	files["p/p_test.go"] = src.String()
	files["p/p.go"] = "// Package p is generated by strobe's daemon benchmark.\npackage p\n"
	return cacheDir(b, "daemon-go-20", files)
}

// BenchmarkDaemonConcurrent runs 16 suites at once from 4 clients (4 each,
// on 16 projects) through one daemon: every run must complete and pass,
// none be lost or mixed up, and no process of any run outlive it.
func BenchmarkDaemonConcurrent(b *testing.B) {
	const clients, perClient = 4, 4
	bin := strobeBin(b)
	home := daemonHome(b)
	p, err := daemon.PathsIn(home)
	if err != nil {
		b.Fatal(err)
	}
	daemon.Executable = func() (string, error) { return bin, nil }
	root := b.TempDir()

	type outcome struct {
		want string
		resp report.Response
		err  error
	}
	results := make(chan outcome, clients*perClient)
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		h := daemon.NewHello("bench")
		conn, err := daemon.Connect(context.Background(), p, h)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprintf("bench-%d", c), Version: "1"}, nil).Connect(context.Background(), conn.Transport(), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		for r := range perClient {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("c%d-r%d", c, r)
				dir := filepath.Join(root, name)
				os.MkdirAll(dir, 0o755)
				// Each suite prints its name among a few hundred lines and
				// takes a little while, so that the 16 overlap.
				cmd := fmt.Sprintf("for i in $(seq 1 200); do echo \"ok $i - %s $i\"; done; sleep 0.5; echo 'ok 201 - %s done'", name, name)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "debug_test", Arguments: map[string]any{"projectRoot": dir, "command": cmd}})
				o := outcome{want: name, err: err}
				if err == nil {
					bs, _ := json.Marshal(res.StructuredContent)
					o.err = json.Unmarshal(bs, &o.resp)
					if res.IsError {
						o.err = fmt.Errorf("tool error: %v", res.Content)
					}
				}
				results <- o
			}()
		}
	}
	wg.Wait()
	took := time.Since(start)
	close(results)
	ids := map[string]bool{}
	passed := 0
	for o := range results {
		switch {
		case o.err != nil:
			b.Errorf("%s: %v", o.want, o.err)
		case o.resp.Status != report.Passed || o.resp.Summary == nil || o.resp.Summary.Passed != 201:
			b.Errorf("%s: %s with %+v", o.want, o.resp.Status, o.resp.Summary)
		default:
			passed++
		}
		if d, err := os.ReadFile(o.resp.Details); err != nil || !strings.Contains(string(d), o.want+" done") {
			b.Errorf("%s: its details file %s does not hold its own output (%v)", o.want, o.resp.Details, err)
		}
		ids[o.resp.RunID] = true
	}
	left := 0
	for id := range ids {
		left += len(daemonProcessesOf(id))
	}
	b.ReportMetric(float64(passed), "passed-runs")
	b.ReportMetric(ms(took), "wall-ms")
	verdict := "met"
	if passed != clients*perClient || len(ids) != clients*perClient || left > 0 {
		verdict = "MISSED"
	}
	record(b, "%d concurrent runs from %d clients: %d passed, %d distinct runIds, %d processes left, %.0f ms wall (each run ~0.5 s; load %s; target: all complete, none lost, none left: %s)",
		clients*perClient, clients, passed, len(ids), left, ms(took), loadavg(), verdict)
}

// daemonProcessesOf lists live processes carrying the run's id.
func daemonProcessesOf(id string) []string {
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		env, err := os.ReadFile(d + "/environ")
		if err != nil || !strings.Contains(string(env), runner.RunIDEnv+"="+id+"\x00") {
			continue
		}
		if st, _ := os.ReadFile(d + "/stat"); strings.Contains(string(st), ") Z ") {
			continue
		}
		out = append(out, filepath.Base(d))
	}
	return out
}
