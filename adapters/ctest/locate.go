package ctest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/report"
)

// locateTimeout bounds each helper the locating runs: ctest's listing and
// a GoogleTest binary's own.
const locateTimeout = 5 * time.Second

// maxLocate bounds the failures located in one run: each GoogleTest
// binary among them is listed once.
const maxLocate = 50

// showOnly is what the locating reads of `ctest --show-only=json-v1`.
type showOnly struct {
	Tests []struct {
		Name      string   `json:"name"`
		Command   []string `json:"command"`
		Backtrace *int     `json:"backtrace"`
		// Properties are the test's set properties: WILL_FAIL, TIMEOUT…
		Properties []struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		} `json:"properties"`
	} `json:"tests"`
	Graph struct {
		Files []string `json:"files"`
		Nodes []struct {
			File int `json:"file"`
			Line int `json:"line"`
		} `json:"nodes"`
	} `json:"backtraceGraph"`
}

// property says what a failed test's property tells of its failure:
// WILL_FAIL turns a test that passed into a failure, with no word of it
// in CTest's status; a TIMEOUT property is the limit CTest stopped it at.
func (p *parser) property(name, prop, value string) {
	switch st := p.statuses[name]; {
	case prop == "WILL_FAIL" && value == "true" && st == "***Failed":
		p.rec.UpdateFailure("", name, func(f *report.Failure) {
			f.Message = strings.Replace(f.Message, plainFailed+st+")",
				"the test passed (it exited 0), and its WILL_FAIL property makes ctest fail a test that passes (ctest: "+st+")", 1)
		})
	case prop == "TIMEOUT" && strings.HasPrefix(st, "***Timeout"):
		p.rec.UpdateFailure("", name, func(f *report.Failure) {
			f.Message = strings.Replace(f.Message, "at its timeout (", "at its TIMEOUT property, "+value+" s (", 1)
		})
	}
}

// locate gives a place to the failures that have none (a GoogleTest test
// that died before any assertion failed, a script that failed silently):
// the TEST's declaration, from the GoogleTest binary's own JSON listing,
// or else the add_test call in CMakeLists.txt, from ctest's json-v1
// listing. It runs only when such failures exist, each tool once.
func (p *parser) locate() {
	var names []string
	for _, t := range p.rec.Tests() {
		if t.Failure != nil && t.Failure.File == "" && len(names) < maxLocate {
			names = append(names, t.Name)
		}
	}
	if len(names) == 0 || p.bin == "" {
		return
	}
	args := append([]string{p.bin}, p.rerun[1:]...)
	args = slices.DeleteFunc(args, func(a string) bool { return a == "--output-on-failure" })
	out, _, err := kit.RunTool(context.Background(), kit.Tool{Dir: p.runDir, Env: p.env, Timeout: locateTimeout}, append(args, "--show-only=json-v1")...)
	var so showOnly
	if err != nil || json.Unmarshal(out, &so) != nil {
		return
	}
	lists := map[string]map[string]place{} // GoogleTest binary → its tests' places
	for _, t := range so.Tests {
		if !slices.Contains(names, t.Name) {
			continue
		}
		for _, prop := range t.Properties {
			p.property(t.Name, prop.Name, string(prop.Value))
		}
		at, ok := p.gtestPlace(t.Command, p.inner[t.Name], lists)
		if !ok && slices.Contains(p.catch2Exits, t.Name) {
			at, ok = p.catch2Place(t.Command)
		}
		if !ok && t.Backtrace != nil && *t.Backtrace < len(so.Graph.Nodes) {
			n := so.Graph.Nodes[*t.Backtrace]
			if n.File < len(so.Graph.Files) && n.Line > 0 {
				at, ok = place{kit.ProjectPath(p.root, so.Graph.Files[n.File]), n.Line}, true
			}
		}
		if ok {
			p.rec.UpdateFailure("", t.Name, func(f *report.Failure) { f.File, f.Line = at.file, at.line })
		}
	}
}

type place struct {
	file string
	line int
}

// gtestPlace is where a GoogleTest test is declared: a
// gtest_discover_tests test's command is `BIN --gtest_filter=Suite.Name
// …`; a binary add_test runs whole names, in inner, the test it died in.
// The binary lists its tests with their file and line
// (--gtest_list_tests --gtest_output=json:FILE, GoogleTest 1.10+).
func (p *parser) gtestPlace(command []string, inner string, lists map[string]map[string]place) (place, bool) {
	if len(command) == 0 {
		return place{}, false
	}
	name := inner
	for _, a := range command[1:] {
		if v, ok := strings.CutPrefix(a, "--gtest_filter="); ok {
			name = v
		}
	}
	if name == "" || p.dir == "" {
		return place{}, false
	}
	bin := command[0]
	list, ok := lists[bin]
	if !ok {
		list = p.gtestList(bin)
		lists[bin] = list
	}
	at, ok := list[name]
	return at, ok
}

// gtestList runs a GoogleTest binary's JSON listing into the report's
// private directory.
func (p *parser) gtestList(bin string) map[string]place {
	file := filepath.Join(p.dir, "gtest-list.json")
	defer os.Remove(file)
	kit.RunTool(context.Background(), kit.Tool{Dir: p.runDir, Env: p.env, Timeout: locateTimeout}, bin, "--gtest_list_tests", "--gtest_output=json:"+file)
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var r struct {
		Suites []struct {
			Name  string `json:"name"`
			Tests []struct {
				Name string `json:"name"`
				File string `json:"file"`
				Line int    `json:"line"`
			} `json:"testsuite"`
		} `json:"testsuites"`
	}
	if json.Unmarshal(b, &r) != nil {
		return nil
	}
	list := map[string]place{}
	for _, s := range r.Suites {
		for _, t := range s.Tests {
			list[s.Name+"."+t.Name] = place{kit.ProjectPath(p.root, t.File), t.Line}
		}
	}
	return list
}

// catch2Place is where a Catch2 test case is declared: a
// catch_discover_tests test's command is `BIN SPEC [EXTRA ARGS]`, and
// `BIN --list-tests -v high SPEC …` lists the test case with its
// file:line, on a line of its own indented by 4, which Catch2 wraps at
// 80 columns (after a '-' or a '/' of a long path): the lines that
// follow are joined to it until one ends in :LINE. Only an absolute
// path, as CMake compiles sources, is taken.
func (p *parser) catch2Place(command []string) (place, bool) {
	if len(command) < 2 {
		return place{}, false
	}
	argv := append([]string{command[0], "--list-tests", "-v", "high"}, command[1:]...)
	out, _, _ := kit.RunTool(context.Background(), kit.Tool{Dir: p.runDir, Env: p.env, Timeout: locateTimeout}, argv...)
	file, line := catch2Listed(string(out))
	if file == "" {
		return place{}, false
	}
	return place{kit.ProjectPath(p.root, file), line}, true
}

// catch2Listed is the first file:line of a Catch2 listing (--list-tests
// -v high), its wrapped lines joined.
func catch2Listed(out string) (string, int) {
	var path strings.Builder
	for _, l := range strings.Split(out, "\n") {
		text, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "    ")
		if !ok || strings.HasPrefix(text, " ") || path.Len() == 0 && !strings.HasPrefix(text, "/") {
			path.Reset()
			continue
		}
		path.WriteString(text)
		if m := catch2Declared.FindStringSubmatch(path.String()); m != nil {
			n, _ := strconv.Atoi(m[2])
			return m[1], n
		}
	}
	return "", 0
}

// catch2Declared is a test case's file:line in Catch2's listing.
var catch2Declared = lazyre.New(`^(/.*):(\d+)$`)
