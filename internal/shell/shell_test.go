package shell

import (
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	type testCase struct {
		in   string
		want []string
		err  bool
	}
	for _, tc := range []testCase{
		{"", nil, false},
		{"  make   check ", []string{"make", "check"}, false},
		{`./run --name 'a b' "c \"d\"" e\ f`, []string{"./run", "--name", "a b", `c "d"`, "e f"}, false},
		{`''`, []string{""}, false},
		{`a'b'"c"`, []string{"abc"}, false},
		{`'open`, nil, true},
		{`"open`, nil, true},
		// $'…', as Quote prints a word with a control character.
		{`x $'a\nb' $'it\'s\t\\' $'\x1b[0m\101'`, []string{"x", "a\nb", "it's\t\\", "\x1b[0m\x41"}, false},
		{`$'open\'`, nil, true},
	} {
		got, err := Split(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("Split(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Split(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNeedsShell(t *testing.T) {
	for in, want := range map[string]bool{
		"make check":              false,
		"./t --filter 'a|b'":      false,
		"make check && echo done": true,
		"ls | wc":                 true,
		"FOO=1 ./t":               true,
		"./t --x=1":               false,
		`echo "$HOME"`:            true,
		"./t > out":               true,
		// A $ the shell leaves as it is: go test's idiom for no tests.
		"go test -bench . -run ^$ ./...": false,
		`go test -run "^$" ./...`:        false,
		"echo $1":                        true,
		"echo ${X}":                      true,
		"echo $(date)":                   true,
		"echo $?":                        true,
	} {
		if got := NeedsShell(in); got != want {
			t.Errorf("NeedsShell(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestCommands(t *testing.T) {
	for in, want := range map[string][]string{
		"jest":                               {"jest"},
		"eslint . && jest --coverage":        {"eslint .", "jest --coverage"},
		"tsc --noEmit || exit 1; vitest run": {"tsc --noEmit", "exit 1", "vitest run"},
		"jest 2>&1 | tee out":                {"jest 2>&1", "tee out"},
		"jest &> log & wait":                 {"jest &> log", "wait"},
		`mocha --grep 'a && b' "x|y"`:        {`mocha --grep 'a && b' "x|y"`},
		"a\nb":                               {"a", "b"},
		"echo 'open":                         nil,
	} {
		got, ok := Commands(in)
		if !slices.Equal(got, want) || ok != (want != nil) {
			t.Errorf("Commands(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestQuoteRoundTrip checks quoted words through a real shell: what Join
// prints, sh reads back as the same words.
func TestQuoteRoundTrip(t *testing.T) {
	words := []string{"plain", "a b", "it's", `"dq"`, "$HOME", "", "^TestA$/^b$"}
	out, err := exec.Command("/bin/sh", "-c", "printf '%s\\n' "+Join(words)).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if !reflect.DeepEqual(got, words) {
		t.Errorf("sh read back %q, want %q", got, words)
	}
	if back, _ := Split(Join(words)); !reflect.DeepEqual(back, words) {
		t.Errorf("Split(Join) = %q, want %q", back, words)
	}
}

// TestQuoteControl: a word holding a control character (a test titled
// "a\nb") is quoted $'…' on one line, and bash reads it back as the
// same word; in plain quotes its newline was printed raw and the command
// cut in two.
func TestQuoteControl(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	words := []string{"a\nb", "tab\there", "it's\r\\n", "\x1b[31m", "x\x7fy", "é\n", "--test-name-pattern=^a\nb$"}
	line := Join(words)
	if strings.ContainsFunc(line, isControl) {
		t.Fatalf("Join printed a control character: %q", line)
	}
	if want := `$'a\nb' $'tab\there' $'it\'s\r\\n' $'\x1b[31m'`; !strings.HasPrefix(line, want) {
		t.Errorf("Join = %s, want it to begin %s", line, want)
	}
	out, err := exec.Command(bash, "-c", "printf '%s\\0' "+line).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00"); !reflect.DeepEqual(got, words) {
		t.Errorf("bash read back %q, want %q", got, words)
	}
	if back, _ := Split(line); !reflect.DeepEqual(back, words) {
		t.Errorf("Split(Join) = %q, want %q", back, words)
	}
	if NeedsShell(line) {
		t.Errorf("NeedsShell(%s): $'…' needs no shell", line)
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	tool := dir + "/mytool"
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(dir+"/notexec", nil, 0o644)
	env := []string{"PATH=/nonexistent", "HOME=/x", "PATH=" + dir}
	if got, err := LookPath("mytool", env); err != nil || got != tool {
		t.Errorf("LookPath(mytool) = %q, %v; want %q from the env's last PATH", got, err, tool)
	}
	if _, err := LookPath("notexec", env); err == nil {
		t.Error("found a file that is not executable")
	}
	if _, err := LookPath("mytool", []string{"PATH=/nonexistent"}); err == nil {
		t.Error("found mytool outside the env's PATH")
	}
	if got, _ := LookPath("./rel/x", env); got != "./rel/x" {
		t.Errorf("a name with a slash changed: %q", got)
	}
}

func TestAssignments(t *testing.T) {
	for _, c := range []struct {
		in   string
		env  []string
		rest string
	}{
		{"jest --ci", nil, "jest --ci"},
		{"TZ=UTC jest", []string{"TZ=UTC"}, "jest"},
		{"NODE_OPTIONS=--experimental-vm-modules npx jest --ci", []string{"NODE_OPTIONS=--experimental-vm-modules"}, "npx jest --ci"},
		{`TZ="Europe/Paris" A_1='x y' B= vitest run`, []string{"TZ=Europe/Paris", "A_1=x y", "B="}, "vitest run"},
		// The shell expands the value: the command needs it.
		{`NODE_OPTIONS="$NODE_OPTIONS --x" jest`, nil, `NODE_OPTIONS="$NODE_OPTIONS --x" jest`},
		{"TZ=UTC X=$(date) jest", []string{"TZ=UTC"}, "X=$(date) jest"},
		// Not assignments: an option, a word with = later on, a name
		// starting with a digit.
		{"jest --env=node", nil, "jest --env=node"},
		{"./a=b jest", nil, "./a=b jest"},
		{"1A=b jest", nil, "1A=b jest"},
		{"TZ=UTC", []string{"TZ=UTC"}, ""},
	} {
		env, rest := Assignments(c.in)
		if !slices.Equal(env, c.env) || rest != c.rest {
			t.Errorf("Assignments(%q) = %q, %q; want %q, %q", c.in, env, rest, c.env, c.rest)
		}
	}
}

func TestEnvAssignments(t *testing.T) {
	for _, c := range []struct {
		in   string
		env  []string
		rest string
	}{
		{"TZ=UTC 'NAME=a b' \"X\"=1 jest", []string{"TZ=UTC", "NAME=a b", "X=1"}, "jest"},
		{"-i X=1 jest", nil, "-i X=1 jest"},
		{"X=$HOME jest", nil, "X=$HOME jest"},
		{"'=x' jest", nil, "'=x' jest"},
	} {
		env, rest := EnvAssignments(c.in)
		if !slices.Equal(env, c.env) || rest != c.rest {
			t.Errorf("EnvAssignments(%q) = %q, %q; want %q, %q", c.in, env, rest, c.env, c.rest)
		}
	}
}
