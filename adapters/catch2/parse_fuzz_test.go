package catch2

import (
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/adapters/adapterstest"
)

// catch2Seeds are the report endings the Catch2 parser treats apart: a
// report cut inside a test, and a sanitizer report on stderr.
var catch2Seeds = []struct{ report, stderr string }{
	{`<?xml version="1.0" encoding="UTF-8"?>
<Catch name="t">
  <Group name="t">
    <TestCase name="first" filename="/project/a.cpp" line="3">
      <OverallResult success="true" durationInSeconds="0.001"/>
    </TestCase>
    <TestCase name="calls exit" filename="/project/a.cpp" line="7">
`, ""},
	{`<?xml version="1.0" encoding="UTF-8"?>
<Catch name="t">
  <Group name="t">
    <TestCase name="overflows" filename="/project/a.cpp" line="3">
`, `=================================================================
==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014
READ of size 4 at 0x602000000014 thread T0
    #0 0x55d4 in overflow() /project/a.cpp:5
    #1 0x55d5 in C_A_T_C_H_T_E_S_T_0() /project/a.cpp:9
SUMMARY: AddressSanitizer: heap-buffer-overflow /project/a.cpp:5 in overflow()
/project/b.cpp:3:7: runtime error: signed integer overflow
WARNING: ThreadSanitizer: data race (pid=4242)
SUMMARY: ThreadSanitizer: data race /project/race.cpp:5 in bump()
`},
}

func FuzzCatch2(f *testing.F) {
	placeholders := strings.NewReplacer("<exe-name>", "SelfTest", "<version>", "3.0.0", "<hex digits>", "hexdigits")
	for _, path := range adapterstest.FuzzGlob(f, "testdata/corpus/*.approved.xml") {
		f.Add([]byte(placeholders.Replace(string(adapterstest.FuzzSeed(f, path)))), []byte{}, []byte{}, []byte{2, 2, 2, 0, 2, 1}, byte(1), byte(0))
	}
	for _, s := range catch2Seeds {
		f.Add([]byte(s.report), []byte("printed\n"), []byte(s.stderr), []byte{}, byte(1), byte(0))
		f.Add([]byte(s.report), []byte{}, []byte(s.stderr), []byte{2, 1}, byte(0), byte(1))
	}
	f.Fuzz(func(t *testing.T, rep, stdout, stderr, sched []byte, code, flags byte) {
		rec := adapters.NewRecorder()
		p := newCatch2Parser(rec, "/project", "", "")
		p.rerun = []string{"/project/t"}
		var out adapters.Outcome
		adapterstest.FuzzRun(t, func() {
			feed := catch2Feed(p)
			adapterstest.FuzzReplay(p, stdout, stderr, rep, sched, feed)
			feed(nil)
			out = p.Finish(adapterstest.FuzzExit(code, flags))
		})
		adapterstest.FuzzCheck(t, rec, out)
	})
}

// catch2Feed runs p's report decoder on the chunks it is given, in step
// with the replay: each call returns once the decoder has taken in every
// byte given so far and waits for more, as the tail reader lets it when
// the report stops growing; nil ends the report. Output lines then reach
// the test the report shows running, as they do live.
func catch2Feed(p *catch2Parser) func([]byte) {
	r := adapterstest.NewStepReader()
	p.tail.Idle() // Line hands lines over at once: the decoder is never behind
	go func() {
		defer close(p.decoded)
		p.decode(r)
	}()
	wait := func() {
		select {
		case <-r.Need:
		case <-p.decoded: // the decoder stopped at an XML error
		}
	}
	wait()
	return func(chunk []byte) {
		if chunk == nil {
			close(r.Chunks)
			return
		}
		select {
		case r.Chunks <- chunk:
			wait()
		case <-p.decoded:
		}
	}
}
