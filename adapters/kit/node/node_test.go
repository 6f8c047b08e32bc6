package node

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"strobe/adapters"
	"strobe/internal/shell"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestFindInWorkspace(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "package.json"), `{"name":"mono","workspaces":["packages/*"]}`)
	write(t, filepath.Join(root, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n")
	pkg := filepath.Join(root, "packages", "web")
	write(t, filepath.Join(pkg, "package.json"), `{"name":"web","type":"module","scripts":{"test":"vitest run"},"devDependencies":{"vitest":"^3.0.0"}}`)
	write(t, filepath.Join(root, "node_modules", ".bin", "vitest"), "#!/bin/sh\n")

	p, ok, err := Find(filepath.Join(pkg, "src"))
	if err != nil || !ok {
		t.Fatalf("Find: ok=%v err=%v", ok, err)
	}
	if p.Dir != pkg || p.Name != "web" || p.Type != "module" {
		t.Errorf("package = %q %q %q, want %q web module", p.Dir, p.Name, p.Type, pkg)
	}
	if p.Root != root || p.Manager != "pnpm" || p.InstallCommand() != "pnpm install --frozen-lockfile" {
		t.Errorf("workspace = %q %q %q", p.Root, p.Manager, p.InstallCommand())
	}
	if !p.Has("vitest") || p.Has("jest") || !p.ScriptRuns("vitest") || p.ScriptRuns("jest") {
		t.Errorf("deps/scripts read wrong: %v %v", p.Deps, p.Scripts)
	}
	bin, err := p.Bin("vitest", "vitest")
	if err != nil || bin != filepath.Join(root, "node_modules", ".bin", "vitest") {
		t.Errorf("Bin = %q, %v; want the hoisted one", bin, err)
	}
	// A script that runs the framework's program by its path, the
	// framework not among the package's dependencies (a dependency's).
	p = &Package{Scripts: map[string]string{"test": "node --no-warnings node_modules/jest/bin/jest.js --ci"}}
	if !p.ScriptRuns("jest") || p.ScriptRuns("mocha") {
		t.Errorf("ScriptRuns(jest) of %q: want true, and mocha false", p.Scripts["test"])
	}
}

func TestBinMissing(t *testing.T) {
	for _, tc := range []struct {
		name, pkgJSON, lock, want string
	}{
		{"not installed", `{"devDependencies":{"jest":"29"}}`, "package-lock.json", "run `npm ci` in "},
		{"no lockfile", `{"devDependencies":{"jest":"29"}}`, "", "run `npm install` in "},
		{"yarn", `{"devDependencies":{"jest":"29"}}`, "yarn.lock", "run `yarn install --frozen-lockfile` in "},
		{"not a dependency", `{}`, "package-lock.json", "jest is not among the project's dependencies"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, "package.json"), tc.pkgJSON)
			if tc.lock != "" {
				write(t, filepath.Join(root, tc.lock), "{}")
			}
			p, ok, err := Find(root)
			if !ok || err != nil {
				t.Fatalf("Find: %v %v", ok, err)
			}
			_, err = p.Bin("jest", "jest")
			var u *adapters.UsageError
			if !adapters.IsUsage(err) {
				t.Fatalf("Bin error = %v, want a usage error", err)
			}
			u = err.(*adapters.UsageError)
			if u.Framework != "jest" || !strings.Contains(u.Hint, tc.want) {
				t.Errorf("usage error = %+v, want framework jest and a hint with %q", u, tc.want)
			}
		})
	}
}

func TestTestScript(t *testing.T) {
	for script, want := range map[string]string{
		`echo "Error: no test specified" && exit 1`: "",
		"mocha":         "mocha",
		"  node --test": "node --test",
	} {
		p := &Package{Scripts: map[string]string{"test": script}}
		if got := p.TestScript(); got != want {
			t.Errorf("TestScript(%q) = %q, want %q", script, got, want)
		}
	}
}

func TestFindNone(t *testing.T) {
	if _, ok, err := Find(t.TempDir()); ok || err != nil {
		t.Errorf("Find in an empty dir: ok=%v err=%v", ok, err)
	}
	bad := t.TempDir()
	write(t, filepath.Join(bad, "package.json"), "{not json")
	if _, _, err := Find(bad); err == nil {
		t.Error("a broken package.json read without error")
	}
}

// TestTestScriptCall: the framework's call in the test script, and what
// else `npm test` runs that a run of the framework alone leaves out.
func TestTestScriptCall(t *testing.T) {
	isJest := func(w []string) bool { // or node's test runner, for its case below
		return slices.ContainsFunc(w[:min(len(w), 4)], func(s string) bool { b := filepath.Base(s); return b == "jest" || b == "jest.js" || s == "--test" })
	}
	for _, tc := range []struct {
		scripts map[string]string
		manager string
		words   string
		env     string // RunEnv's, quoted
		rerun   string // RerunPrefix, quoted
		note    string
	}{
		{scripts: map[string]string{"test": "jest --coverage"}, words: "jest --coverage"},
		{scripts: map[string]string{}, words: ""},
		{scripts: map[string]string{"test": "eslint . && jest"}, words: "jest",
			note: "package.json's test script also runs `eslint .`, which strobe did not run: run `npm test` for it"},
		{scripts: map[string]string{"test": "tsc --noEmit && npx jest --ci; prettier --check 'src/**/*.ts'"}, words: "npx jest --ci", manager: "pnpm",
			note: "package.json's test script also runs `tsc --noEmit` and `prettier --check 'src/**/*.ts'`, which strobe did not run: run `pnpm test` for them"},
		{scripts: map[string]string{"test": "npm run lint && npm run unit", "lint": "eslint .", "unit": "jest --ci"}, words: "jest --ci",
			note: "package.json's test script also runs `eslint .`, which strobe did not run: run `npm test` for it"},
		{scripts: map[string]string{"test": "jest", "pretest": "eslint ."}, words: "jest",
			note: "package.json's test script also runs `eslint .`, which strobe did not run: run `npm test` for it"},
		{scripts: map[string]string{"test": "jest", "pretest": "eslint ."}, manager: "pnpm", words: "jest"}, // pnpm runs no pretest
		// What the command sets is the run's environment, and its
		// rerun's.
		{scripts: map[string]string{"test": "TZ=UTC jest && eslint ."}, words: "jest", env: "TZ=UTC", rerun: "TZ=UTC",
			note: "package.json's test script also runs `eslint .`, which strobe did not run: run `npm test` for it"},
		{scripts: map[string]string{"test": "cross-env NODE_ENV=test TZ='Europe/Paris' jest --ci"}, words: "jest --ci", env: "NODE_ENV=test TZ=Europe/Paris", rerun: "NODE_ENV=test TZ=Europe/Paris"},
		{scripts: map[string]string{"test": "NODE_OPTIONS=--experimental-vm-modules npx jest"}, words: "npx jest",
			env: "NODE_OPTIONS=--experimental-vm-modules", rerun: "NODE_OPTIONS=--experimental-vm-modules"},
		{scripts: map[string]string{"test": "env NODE_OPTIONS=--experimental-vm-modules npx jest"}, words: "npx jest",
			env: "NODE_OPTIONS=--experimental-vm-modules", rerun: "NODE_OPTIONS=--experimental-vm-modules"},
		{scripts: map[string]string{"test": "cross-env-shell NODE_ENV=test jest"}, words: "jest", env: "NODE_ENV=test", rerun: "NODE_ENV=test"},
		{scripts: map[string]string{"test": "TZ='America/New York' jest"}, words: "jest", env: "'TZ=America/New York'", rerun: "env 'TZ=America/New York'"},
		// node's own options before the framework's program go to
		// NODE_OPTIONS, after the client's (here --max-old-space-size).
		{scripts: map[string]string{"test": "node --experimental-vm-modules --no-warnings node_modules/jest/bin/jest.js"}, words: "node --experimental-vm-modules --no-warnings node_modules/jest/bin/jest.js",
			env: "'NODE_OPTIONS=--max-old-space-size=4096 --experimental-vm-modules --no-warnings'", rerun: "env 'NODE_OPTIONS=--experimental-vm-modules --no-warnings'"},
		{scripts: map[string]string{"test": "NODE_OPTIONS=--trace-warnings node -r ts-node/register node_modules/.bin/jest"}, words: "node -r ts-node/register node_modules/.bin/jest",
			env: "'NODE_OPTIONS=--trace-warnings -r ts-node/register'", rerun: "env 'NODE_OPTIONS=--trace-warnings -r ts-node/register'"},
		// node's test runner: its options are its own.
		{scripts: map[string]string{"test": "TZ=UTC node --test --experimental-test-coverage test/"}, words: "node --test --experimental-test-coverage test/", env: "TZ=UTC", rerun: "TZ=UTC"},
		// A value the shell expands needs the shell.
		{scripts: map[string]string{"test": `NODE_OPTIONS="$NODE_OPTIONS --experimental-vm-modules" jest`}, words: "",
			note: "package.json's test script (`NODE_OPTIONS=\"$NODE_OPTIONS --experimental-vm-modules\" jest`) is not a plain call of jest: strobe ran jest alone, and not the rest of the script: run `npm test` for it"},
		{scripts: map[string]string{"test": "react-scripts test"}, words: "",
			note: "package.json's test script (`react-scripts test`) is not a plain call of jest: strobe ran jest alone, and not the rest of the script: run `npm test` for it"},
		{scripts: map[string]string{"test": "jest 2>&1 | tee out.txt"}, words: "",
			note: "package.json's test script (`jest 2>&1 | tee out.txt`) is not a plain call of jest: strobe ran jest alone, and not the rest of the script: run `npm test` for it"},
		{scripts: map[string]string{"test": `jest -t "a && b"`}, words: "jest -t 'a && b'"},
		// An env file's program: the run is under it, and the reruns.
		{scripts: map[string]string{"test": "dotenv -e .env.test -- jest --ci"}, words: "jest --ci", rerun: "npx dotenv -e .env.test --"},
		{scripts: map[string]string{"test": "dotenv -e .env -e .env.test -c test -- npx jest"}, words: "npx jest", rerun: "npx dotenv -e .env -e .env.test -c test --"},
		{scripts: map[string]string{"test": "env-cmd -f .env.test --no-override jest"}, words: "jest", rerun: "npx env-cmd -f .env.test --no-override"},
		{scripts: map[string]string{"test": "cross-env TZ=UTC env-cmd jest"}, words: "jest", env: "TZ=UTC", rerun: "TZ=UTC npx env-cmd"},
	} {
		p := &Package{Scripts: tc.scripts, Manager: cmp.Or(tc.manager, "npm")}
		sc := p.TestScriptCall("jest", isJest)
		if got := shell.Join(sc.Words); got != tc.words || sc.Note != tc.note {
			t.Errorf("%q (%s): words %q, note %q; want %q, %q", tc.scripts, tc.manager, got, sc.Note, tc.words, tc.note)
		}
		env := shell.Join(sc.RunEnv([]string{"NODE_OPTIONS=--max-old-space-size=4096"}))
		if rerun := shell.Join(sc.RerunPrefix()); env != tc.env || rerun != tc.rerun {
			t.Errorf("%q: env %s, rerun prefix %s; want %s, %s", tc.scripts, env, rerun, tc.env, tc.rerun)
		}
	}
}

func TestWithoutCoverage(t *testing.T) {
	for in, want := range map[string]string{
		"--coverage --config scripts/v.mts":                        "--config scripts/v.mts",
		"--coverage src/ --ci":                                     "src/ --ci",
		"--coverageReporters text --coverageThreshold={} -i":       "-i",
		"--collectCoverage=true --collectCoverageFrom src/** --ci": "--ci",
		"--coverage.enabled --coverage.include src --no-watch":     "--no-watch",
		"--coverage.thresholds.lines=90 --project a":               "--project a",
	} {
		if got := strings.Join(WithoutCoverage(strings.Fields(in)), " "); got != want {
			t.Errorf("WithoutCoverage(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWithoutShard(t *testing.T) {
	for in, want := range map[string]string{
		"--shard=2/3 --ci":    "--ci",
		"-i --shard 1/2 src/": "-i src/",
		"--project a":         "--project a",
		"--shard":             "",
	} {
		if got := strings.Join(WithoutShard(strings.Fields(in)), " "); got != want {
			t.Errorf("WithoutShard(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCdTo(t *testing.T) {
	for _, tc := range []struct{ root, dir, cd, cmd string }{
		{"/p", "/p", "", "npx jest"},
		{"/p/src/utils", "/p", "../..", "cd ../.. && npx jest"},
		{"/p", "/p/web app", "web app", "cd 'web app' && npx jest"},
	} {
		cd := CdTo(tc.root, tc.dir)
		if cmd := InDir(cd, "npx jest"); cd != tc.cd || cmd != tc.cmd {
			t.Errorf("CdTo(%q, %q) = %q, InDir = %q; want %q, %q", tc.root, tc.dir, cd, cmd, tc.cd, tc.cmd)
		}
	}
}

func TestWithoutPaths(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"test/unit", "jest.config.js", "src"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	kept, dropped := WithoutPaths([]string{"run", "test/unit", "--config", "jest.config.js", "--rootDir=src", "--ci", "src", "-t", "x", "nosuch"}, dir)
	if strings.Join(kept, " ") != "run --config jest.config.js --rootDir=src --ci -t x nosuch" || strings.Join(dropped, " ") != "test/unit src" {
		t.Errorf("kept %q, dropped %q", kept, dropped)
	}
}
