package testutil

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Python packages a few tests run with, but that must not be installed
// beside pytest, where every other fixture's run would load them (pytest's
// plugins): .ci/run installs them into their own directory, which those
// tests put on PYTHONPATH.
const (
	// PyAsyncRequirements pins pytest-asyncio and anyio (its pytest plugin).
	PyAsyncRequirements = "adapters/pytest/testdata/async-requirements.txt"
	// PyAsyncSite is where .ci/run installs them (gitignored).
	PyAsyncSite = "adapters/pytest/testdata/async-site"
	// PyRandomlyRequirements pins pytest-randomly, PyRandomlySite is
	// where .ci/run installs it (gitignored).
	PyRandomlyRequirements = "adapters/pytest/testdata/randomly-requirements.txt"
	PyRandomlySite         = "adapters/pytest/testdata/randomly-site"
)

// RequirePythonSite returns the absolute path of site, a directory that
// `pip install --no-deps --target site -r requirements` filled (both
// relative to the repository's root), once it holds every pinned version.
// Without them the test is skipped on a developer's machine, saying the
// command that installs them, and fails under CI=true, where .ci/run must
// have run it.
func RequirePythonSite(t testing.TB, requirements, site string) string {
	t.Helper()
	dir := filepath.Join(Root(), site)
	f, err := os.Open(filepath.Join(Root(), requirements))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var missing []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		name, version, ok := strings.Cut(line, "==")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !ok {
			t.Fatalf("%s: %q is not pinned (name==version)", requirements, line)
		}
		// pip names the directory after the normalised name (PEP 503's,
		// with underscores): typing_extensions-4.16.0.dist-info.
		info := distName.ReplaceAllString(strings.ToLower(strings.TrimSpace(name)), "_") + "-" + strings.TrimSpace(version) + ".dist-info"
		if _, err := os.Stat(filepath.Join(dir, info)); err != nil {
			missing = append(missing, line)
		}
	}
	if len(missing) > 0 {
		msg := "python3 -m pip install --no-deps --upgrade --target " + site + " -r " + requirements + " has not run (missing " + strings.Join(missing, ", ") + ")"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + ": .ci/run must run it")
		}
		t.Skip(msg)
	}
	return dir
}

var distName = regexp.MustCompile(`[-_.]+`)
