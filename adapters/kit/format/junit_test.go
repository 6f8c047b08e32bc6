package format

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/adapterstest"
)

// junitResult is what a golden file holds of a report: its test cases and
// the error that ended it, if any.
type junitResult struct {
	Cases []JUnitCase
	Err   string `json:",omitempty"`
}

func readJUnit(r io.Reader) junitResult {
	var res junitResult
	jr := NewJUnitReader(r)
	for {
		c, err := jr.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				res.Err = err.Error()
			}
			return res
		}
		res.Cases = append(res.Cases, c)
	}
}

// TestJUnitGolden reads real reports of several producers
// (testdata/junit/README.md says where each comes from).
func TestJUnitGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/junit/*.xml")
	if len(files) < 10 {
		t.Fatalf("%d samples, want the dozen of testdata/junit", len(files))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".xml")
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			adapterstest.Golden(t, "junit/"+name, readJUnit(f))
		})
	}
}

// TestJUnitDialects checks, beside the golden files, what each producer's
// dialect must give.
func TestJUnitDialects(t *testing.T) {
	read := func(name string) junitResult {
		f, err := os.Open("testdata/junit/" + name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return readJUnit(f)
	}
	find := func(res junitResult, name string) JUnitCase {
		for _, c := range res.Cases {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no case %q in %+v", name, res.Cases)
		return JUnitCase{}
	}
	bun := read("bun-1.4.5.xml")
	if c := find(bun, "multiplies"); c.Status != JUnitFailed || c.File != "math.test.ts" || c.Line != 7 || c.FullName(" > ") != "math > multiplies" || !strings.Contains(c.Text, "at math.test.ts:8:19") {
		t.Errorf("bun's nested describe: %+v", c)
	}
	if c := find(bun, "subtracts"); c.Status != JUnitSkipped || c.Message != "TODO" {
		t.Errorf("bun's todo: %+v", c)
	}
	deno := read("deno-2.9.6-filter.xml")
	if c := find(deno, "adds"); c.Status != JUnitSkipped || c.HasTime {
		t.Errorf("deno's filtered-out test: %+v, want skipped without a time", c)
	}
	if c := find(read("deno-2.9.6.xml"), "divides later"); c.Status != JUnitSkipped || !c.HasTime {
		t.Errorf("deno's ignored test: %+v, want skipped with a time", c)
	}
	if c := find(read("gradle-junit4.xml"), "test3"); c.Status != JUnitError || c.Type != "java.lang.RuntimeException" || c.Time != 0.001 {
		t.Errorf("gradle's error: %+v", c)
	}
	if c := find(read("surefire-flaky.xml"), "createWebhook"); c.Status != JUnitPassed || c.Reruns != 1 {
		t.Errorf("surefire's flaky test: %+v, want passed after one rerun", c)
	}
	if c := find(read("pytest-xunit1-file-line.xml"), "test_get_available_devices"); c.Status != JUnitSkipped || c.File != "test/test_spark.py" || c.Line != 1641 {
		t.Errorf("pytest's skip: %+v", c)
	}
	if res := read("pytest-truncated.xml"); res.Err == "" || len(res.Cases) == 0 {
		t.Errorf("a cut report: %d cases, error %q; want the cases before the cut, then an error", len(res.Cases), res.Err)
	}
}

// TestJUnitBoundsText: a test's 8 MB of output, in CDATA and as text
// full of entities, and an 8 MB message attribute are cut to
// JUnitMaxText as they are read, and the report stays readable after
// them.
func TestJUnitBoundsText(t *testing.T) {
	big := strings.Repeat("x &lt; y ü\n", 800_000)
	report := `<testsuites><testsuite name="s">` +
		`<testcase name="floods"><failure message="` + big + `">` + big + `</failure>` +
		`<system-out><![CDATA[` + strings.Repeat("]] <x> &", 1_000_000) + `]]></system-out>` +
		`<system-err>` + big + `</system-err></testcase>` +
		`<testcase name="after" time="1,234.5"/></testsuite></testsuites>`
	// The decoder never sees the flood: what reaches it is the tags and
	// a bounded part of each text.
	n, err := io.Copy(io.Discard, &junitCap{r: strings.NewReader(report), max: JUnitMaxText})
	if err != nil || n > 5*JUnitMaxText+1000 {
		t.Errorf("the decoder was given %d bytes of a %d-byte report (%v)", n, len(report), err)
	}
	res := readJUnit(strings.NewReader(report))
	if res.Err != "" || len(res.Cases) != 2 {
		t.Fatalf("%d cases, error %q", len(res.Cases), res.Err)
	}
	c := res.Cases[0]
	for what, s := range map[string]string{"message": c.Message, "text": c.Text, "system-out": c.SystemOut, "system-err": c.SystemErr} {
		if len(s) > JUnitMaxText+8 || len(s) < JUnitMaxText/2 {
			t.Errorf("%s: %d bytes, want about %d", what, len(s), JUnitMaxText)
		}
	}
	if !strings.HasPrefix(c.SystemOut, "]] <x> &") || !strings.HasPrefix(c.SystemErr, "x < y ü") {
		t.Errorf("the text's start is lost: %.20q %.20q", c.SystemOut, c.SystemErr)
	}
	if a := res.Cases[1]; a.Name != "after" || a.Time != 1234.5 {
		t.Errorf("the case after the flood: %+v", a)
	}
}

// FuzzJUnit reads arbitrary bytes as a report: it must end, without a
// panic, and give only named statuses.
func FuzzJUnit(f *testing.F) {
	for _, path := range adapterstest.FuzzGlob(f, "testdata/junit/*.xml") {
		f.Add(adapterstest.FuzzSeed(f, path))
	}
	f.Add([]byte(`<testsuite><testcase name="a"><failure message="m">t</failure><skipped/></testcase><![CDATA[x]]]></testsuite>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		adapterstest.FuzzRun(t, func() {
			r := NewJUnitReader(bytes.NewReader(b))
			for i := 0; ; i++ {
				c, err := r.Next()
				if err != nil {
					return
				}
				switch c.Status {
				case JUnitPassed, JUnitFailed, JUnitError, JUnitSkipped:
				default:
					t.Fatalf("case %d: status %q", i, c.Status)
				}
				if len(c.Text) > JUnitMaxText+8 || len(c.SystemOut) > JUnitMaxText+8 {
					t.Fatalf("case %d: text beyond the bound", i)
				}
			}
		})
	})
}

// BenchmarkJUnit reads a report of 2,000 test cases in deno's dialect,
// a quarter of them failed with a message and a stack.
func BenchmarkJUnit(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<testsuites>\n<testsuite name=\"./math_test.ts\">\n")
	for i := range 2000 {
		if i%4 == 0 {
			sb.WriteString(`<testcase name="fails" classname="./math_test.ts" time="0.001" line="7" col="6"><failure message="Uncaught AssertionError: Values are not equal">AssertionError: Values are not equal:

  actual: 9
  expected: 10
    at file:///project/math_test.ts:8:3</failure></testcase>` + "\n")
			continue
		}
		sb.WriteString(`<testcase name="adds" classname="./math_test.ts" time="0.001" line="3" col="6"></testcase>` + "\n")
	}
	sb.WriteString("</testsuite>\n</testsuites>\n")
	report := sb.String()
	b.SetBytes(int64(len(report)))
	b.ResetTimer()
	for range b.N {
		r := NewJUnitReader(strings.NewReader(report))
		n := 0
		for {
			if _, err := r.Next(); err != nil {
				break
			}
			n++
		}
		if n != 2000 {
			b.Fatalf("%d cases", n)
		}
	}
	b.ReportMetric(float64(2000*b.N)/b.Elapsed().Seconds(), "cases/s")
}

// TestJUnitSuiteOutput: Gradle's <system-out> sits on the suite, after its
// test cases (a real Gradle report, adapters/gradle/testdata/corpus).
func TestJUnitSuiteOutput(t *testing.T) {
	const report = `<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.github.guenhter.junit.FooTest" tests="1" skipped="0" failures="0" errors="0" timestamp="2023-01-11T08:51:38" hostname="pcs" time="0.0">
  <properties/>
  <testcase name="it is true()" classname="com.github.guenhter.junit.FooTest" time="0.0"/>
  <system-out><![CDATA[Hi beforeAll
Hi afterAll
]]></system-out>
  <system-err><![CDATA[]]></system-err>
</testsuite>
`
	r := NewJUnitReader(strings.NewReader(report))
	n := 0
	for {
		c, err := r.Next()
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		if c.SystemOut != "" {
			t.Errorf("test case output %q, want none: it is the suite's", c.SystemOut)
		}
		n++
	}
	out, errOut := r.SuiteOutput()
	if n != 1 || out != "Hi beforeAll\nHi afterAll\n" || errOut != "" {
		t.Errorf("%d cases, suite output %q %q", n, out, errOut)
	}
}
