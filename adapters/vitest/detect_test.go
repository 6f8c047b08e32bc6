package vitest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
)

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		cmd   []string
		want  int
	}{
		{"command", nil, []string{"npx", "vitest", "run"}, 95},
		{"bin command", nil, []string{"node_modules/.bin/vitest"}, 95},
		{"other command", nil, []string{"npx", "jest"}, 0},
		{"vitest config", map[string]string{"package.json": `{}`, "vitest.config.mts": ""}, nil, 90},
		{"vite config with a test block", map[string]string{"package.json": `{}`, "vite.config.ts": "export default { test: { globals: true } }"}, nil, 88},
		{"vite config without", map[string]string{"package.json": `{}`, "vite.config.ts": "export default {}"}, nil, 0},
		{"dependency and script", map[string]string{"package.json": `{"scripts":{"test":"vitest"},"devDependencies":{"vitest":"3.2.4"}}`}, nil, 85},
		{"dependency", map[string]string{"package.json": `{"devDependencies":{"vitest":"3.2.4"}}`}, nil, 70},
		// jshttp/negotiator's: vitest for the benchmarks, mocha for the tests.
		{"benchmarks only", map[string]string{"package.json": `{"scripts":{"bench":"vitest bench","test":"mocha --reporter spec --check-leaks test/"},"devDependencies":{"mocha":"^11.7.0","vitest":"3.2.4"}}`}, nil, 1},
		{"benchmarks and tests", map[string]string{"package.json": `{"scripts":{"bench":"vitest bench","test":"vitest run"},"devDependencies":{"vitest":"3.2.4"}}`}, nil, 85},
		{"nothing", map[string]string{"package.json": `{"devDependencies":{"jest":"30"}}`}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := New().Detect(adapters.Request{ProjectRoot: dir, Command: tc.cmd}); got.Confidence != tc.want {
				t.Errorf("confidence %d (%q), want %d", got.Confidence, got.Hint, tc.want)
			}
		})
	}
}

func TestArgs(t *testing.T) {
	got := userArgs([]string{"watch", "--reporter", "verbose", "--outputFile.json=x", "--color", "src/", "--project", "a", "-w"})
	if want := []string{"src/", "--project", "a"}; !slices.Equal(got, want) {
		t.Errorf("userArgs = %q, want %q", got, want)
	}
	if got := namePattern("a.b > c (d) [e] * + ?"); got != `^a\.b (?:> )?c \(d\) \[e\] \* \+ \?$` {
		t.Errorf("namePattern = %q", got)
	}
}

func TestIsTestProcess(t *testing.T) {
	for _, tc := range []struct {
		p    adapters.Proc
		want bool
	}{
		{adapters.Proc{Name: "node (vitest)", Args: []string{"node (vitest)"}}, true},
		{adapters.Proc{Name: "node (vitest 1)", Args: []string{"node (vitest 1)"}}, true},
		{adapters.Proc{Name: "node (vitest 12", Args: []string{"node (vitest 12)"}}, true},
		{adapters.Proc{Name: "node", Args: []string{"node", "/p/node_modules/.bin/vitest", "run"}}, true},
		{adapters.Proc{Name: "esbuild", Args: []string{"/p/node_modules/@esbuild/linux-x64/bin/esbuild", "--service=0.25.12", "--ping"}}, false},
		{adapters.Proc{Name: "npm exec vitest", Args: []string{"npm exec vitest"}}, false},
		{adapters.Proc{Name: "sh", Args: []string{"sh", "-c", "vitest run"}}, false},
	} {
		if got := (vitest{}).IsTestProcess(tc.p); got != tc.want {
			t.Errorf("IsTestProcess(%q %q) = %v, want %v", tc.p.Name, tc.p.Args, got, tc.want)
		}
	}
}

// TestVitestArgs: vitest is found after a launcher and after node's
// options, any number of them.
func TestVitestArgs(t *testing.T) {
	for cmd, want := range map[string]string{
		"vitest run":       "run",
		"npx vitest --run": "--run",
		"node --experimental-vm-modules --no-warnings --expose-gc node_modules/vitest/vitest.mjs run": "run",
		"node -r ./setup.cjs node_modules/vitest/vitest.mjs":                                          "",
	} {
		args, ok := vitestArgs(strings.Fields(cmd))
		if !ok || strings.Join(args, " ") != want {
			t.Errorf("vitestArgs(%q) = %q, %v; want %q", cmd, args, ok, want)
		}
	}
	if args, ok := vitestArgs(strings.Fields("node scripts/build.js")); ok {
		t.Errorf("node scripts/build.js: %q, want no vitest", args)
	}
}
