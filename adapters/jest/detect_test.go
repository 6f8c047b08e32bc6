package jest

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"strobe/adapters"
)

func TestJestDetect(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   map[string]string
		command []string
		want    int
	}{
		{"config file", map[string]string{"package.json": `{}`, "jest.config.ts": ""}, nil, 90},
		{"jest key", map[string]string{"package.json": `{"jest":{"testEnvironment":"node"}}`}, nil, 90},
		{"test script", map[string]string{"package.json": `{"scripts":{"test":"jest --coverage"}}`}, nil, 85},
		{"dependency", map[string]string{"package.json": `{"devDependencies":{"jest":"^29"}}`}, nil, 80},
		{"vitest project", map[string]string{"package.json": `{"devDependencies":{"vitest":"^3"}}`}, nil, 0},
		{"no package.json", map[string]string{"go.mod": "module x\n"}, nil, 0},
		{"npx jest", nil, []string{"npx", "jest", "-i"}, 95},
		{"pnpm exec jest", nil, []string{"pnpm", "exec", "jest"}, 95},
		{"bin path", nil, []string{"node_modules/.bin/jest", "src"}, 95},
		{"other command", nil, []string{"npx", "vitest", "run"}, 0},
		{"npm test", nil, []string{"npm", "test"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range tc.files {
				if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d := New().Detect(adapters.Request{ProjectRoot: root, Command: tc.command})
			if d.Confidence != tc.want {
				t.Errorf("confidence %d (%s), want %d", d.Confidence, d.Hint, tc.want)
			}
		})
	}
}

func TestJestSelection(t *testing.T) {
	if got, want := namePattern("a › b (c) [d] $1.50?"), `^a (?:› )?b \(c\) \[d\] \$1\.50\?$`; got != want {
		t.Errorf("namePattern = %q, want %q", got, want)
	}
	if got := keptArgs([]string{"-i", "--reporters", "default", "--json", "--outputFile=x.json", "src"}); len(got) != 2 || got[0] != "-i" || got[1] != "src" {
		t.Errorf("keptArgs = %q, want -i src", got)
	}
	pat := levelPattern("/p/web", "unit")
	for path, want := range map[string]bool{
		"/p/web/test/unit/a.test.js": true, "/p/web/a.unit.test.ts": true, "/p/web/src/x.unit.spec.js": true,
		"/p/web/test/community/a.test.js": false, "/p/web/test/e2e/a.test.js": false, "/other/unit/a.test.js": false,
	} {
		if got := mustMatch(t, pat, path); got != want {
			t.Errorf("level unit on %s: %v, want %v", path, got, want)
		}
	}
}

func mustMatch(t *testing.T, pattern, s string) bool {
	t.Helper()
	re, err := regexp.Compile(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return re.MatchString(s)
}
