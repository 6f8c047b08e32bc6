package python

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"strobe/adapters/kit"
)

// PytestConfig names the file that configures pytest in root (pytest.ini,
// pyproject.toml's [tool.pytest.ini_options], setup.cfg, tox.ini), "" if
// none: the pytest adapter's surest evidence, and the unittest adapter's
// sign to give way. .pytest.ini is named pytest.ini.
func PytestConfig(root string) string {
	file, _ := pytestConfig(root)
	if file == ".pytest.ini" {
		return "pytest.ini"
	}
	return file
}

// pytestConfig is the file that configures pytest in root and its
// section, "" when none does. A pytest.ini configures it whole, with or
// without its [pytest] section.
func pytestConfig(root string) (file, section string) {
	for _, name := range []string{"pytest.ini", ".pytest.ini"} {
		if kit.FileExists(filepath.Join(root, name)) {
			return name, "[pytest]"
		}
	}
	for _, c := range []struct{ file, section string }{
		{"pyproject.toml", "[tool.pytest.ini_options]"},
		{"pyproject.toml", "[tool.pytest]"},
		{"setup.cfg", "[tool:pytest]"},
		{"tox.ini", "[pytest]"},
	} {
		if hasSection(filepath.Join(root, c.file), c.section) {
			return c.file, c.section
		}
	}
	return "", ""
}

// PytestTestpaths are the directories the testpaths setting of root's
// pytest configuration names, absolute; nil when it names none (pytest
// then looks through the whole root). Globs are kept as written.
func PytestTestpaths(root string) []string {
	var paths []string
	switch file, section := pytestConfig(root); file {
	case "":
		return nil
	case "pyproject.toml":
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			return nil
		}
		var m struct {
			Tool struct {
				Pytest struct {
					IniOptions struct {
						Testpaths any `toml:"testpaths"`
					} `toml:"ini_options"`
					Testpaths any `toml:"testpaths"`
				} `toml:"pytest"`
			} `toml:"tool"`
		}
		if toml.Unmarshal(b, &m) != nil {
			return nil
		}
		for _, v := range []any{m.Tool.Pytest.IniOptions.Testpaths, m.Tool.Pytest.Testpaths} {
			switch v := v.(type) {
			case string:
				paths = append(paths, strings.Fields(v)...)
			case []any:
				for _, p := range v {
					if s, ok := p.(string); ok {
						paths = append(paths, s)
					}
				}
			}
		}
	default:
		paths = iniValue(filepath.Join(root, file), section, "testpaths")
	}
	var out []string // nil when it names none
	for _, p := range paths {
		out = append(out, filepath.Join(root, p))
	}
	return out
}

// iniValue is the words of key's value in an INI file's section, its
// continuation lines (indented) included.
func iniValue(path, section, key string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var words []string
	in, value := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "["):
			in, value = trimmed == section, false
		case !in || trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, ";"):
		case value && line != trimmed: // a continuation line
			words = append(words, strings.Fields(trimmed)...)
		default:
			k, v, ok := strings.Cut(trimmed, "=")
			value = ok && strings.TrimSpace(k) == key
			if value {
				words = append(words, strings.Fields(v)...)
			}
		}
	}
	return words
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
