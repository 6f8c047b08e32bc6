package all

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"strobe/adapters/kit"
	pykit "strobe/adapters/kit/python"
)

// pytestTestpaths are the directories the testpaths setting of root's
// pytest configuration names, cleaned and absolute; nil when it names
// none (pytest then looks through the whole root). Globs are kept as
// written: a directory below matches them by path.Match.
func pytestTestpaths(root string) []string {
	var paths []string
	switch file := pykit.PytestConfig(root); file {
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
		section := map[string]string{"pytest.ini": "[pytest]", "setup.cfg": "[tool:pytest]", "tox.ini": "[pytest]"}[file]
		if file == "pytest.ini" && !kit.FileExists(filepath.Join(root, "pytest.ini")) {
			file = ".pytest.ini"
		}
		paths = iniValue(filepath.Join(root, file), section, "testpaths")
	}
	var out []string
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

// reaches says whether pytest, given paths, collects tests in dir: dir
// is one of them, below one, above one, or matches one as a glob.
func reaches(paths []string, dir string) bool {
	for _, p := range paths {
		if ok, _ := filepath.Match(p, dir); ok || within(p, dir) || within(dir, p) {
			return true
		}
	}
	return false
}

// within says whether path is dir or below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
