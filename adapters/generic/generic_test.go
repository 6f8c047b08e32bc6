package generic

import (
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
	"strobe/report"
)

// TestGenericTAP runs a shell script that speaks TAP, with a YAML block
// that locates the failure, and an automake line.
func TestGenericTAP(t *testing.T) {
	script := `printf '%s\n' 'TAP version 13' '1..3' 'ok 1 - adds' 'not ok 2 - divides' '  ---' '  at: src/div.sh:12' '  ...' 'ok 3 - skips # SKIP no network' 'FAIL: legacy'; exit 1`
	rec, out, exit := adapterstest.RunReal(t, New(), adapters.Request{ProjectRoot: t.TempDir(), Command: []string{"/bin/sh", "-c", script}})
	if exit.Code != 1 {
		t.Errorf("exit %+v", exit)
	}
	if out.Crash != nil || out.NoTests {
		t.Errorf("outcome %+v", out)
	}
	want := map[string]report.TestStatus{"adds": report.TestPassed, "divides": report.TestFailed, "skips": report.TestSkipped, "legacy": report.TestFailed}
	for name, st := range want {
		tt, ok := adapterstest.TestByName(rec.Tests(), name)
		if !ok || tt.Status != st {
			t.Errorf("%s: %+v, want %s", name, tt, st)
		}
	}
	div, _ := adapterstest.TestByName(rec.Tests(), "divides")
	if f := div.Failure; f == nil || f.File != "src/div.sh" || f.Line != 12 {
		t.Errorf("divides failed at %+v, want src/div.sh:12 from the YAML block", f)
	}
}
