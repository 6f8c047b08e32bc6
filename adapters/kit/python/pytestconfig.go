package python

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"strobe/adapters/kit"
)

// PytestConfig names the file that configures pytest in root (pytest.ini,
// pyproject.toml's [tool.pytest.ini_options], setup.cfg, tox.ini), "" if
// none: the pytest adapter's surest evidence, and the unittest adapter's
// sign to give way.
func PytestConfig(root string) string {
	if kit.FileExists(filepath.Join(root, "pytest.ini")) || kit.FileExists(filepath.Join(root, ".pytest.ini")) {
		return "pytest.ini"
	}
	for _, c := range []struct{ file, section string }{
		{"pyproject.toml", "[tool.pytest.ini_options]"},
		{"pyproject.toml", "[tool.pytest]"},
		{"setup.cfg", "[tool:pytest]"},
		{"tox.ini", "[pytest]"},
	} {
		if hasSection(filepath.Join(root, c.file), c.section) {
			return c.file
		}
	}
	return ""
}

// hasSection says whether an INI or TOML file has a line that is section.
func hasSection(path, section string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == section {
			return true
		}
	}
	return false
}

// HasConftest says whether root has pytest's conftest.py.
func HasConftest(root string) bool {
	return kit.FileExists(filepath.Join(root, "conftest.py"))
}
