package python

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"strobe/adapters/kit"
	"strobe/internal/lazyre"
)

// installed says whether module is certainly importable by the
// interpreter, from the files alone: it lies in a directory the
// interpreter always reads modules from (its environment's or
// installation's site-packages, the user's site, PYTHONPATH). Asking
// Python cost its start-up in front of every pytest run; so HasModule
// asks this first, and Python only when it cannot tell (false: not found,
// or an interpreter it cannot place).
func (in Interpreter) installed(dir string, env []string, module string) bool {
	for _, site := range in.siteDirs(dir, env) {
		if kit.FileExists(filepath.Join(site, module, "__init__.py")) || kit.FileExists(filepath.Join(site, module+".py")) {
			return true
		}
	}
	return false
}

// pythonVersion reads a CPython executable's version: python3.12 → 3.12.
var pythonVersion = lazyre.New(`^python(3\.\d+)$`)

// siteDirs are the directories on the interpreter's sys.path that hold
// installed modules, as far as the files say without running it: a
// virtual environment's site-packages; an installation's (a prefix with
// bin/python3.X and lib/python3.X), with Debian's dist-packages, and the
// user's site; a pyenv shim's version, as pyenv picks it; PYTHONPATH.
func (in Interpreter) siteDirs(dir string, env []string) []string {
	var dirs []string
	for _, p := range filepath.SplitList(kit.EnvValue(env, "PYTHONPATH")) {
		if filepath.IsAbs(p) {
			dirs = append(dirs, p)
		}
	}
	exe := in.Path
	if !filepath.IsAbs(exe) {
		return dirs
	}
	if v := pyenvVersion(exe, dir, env); v != "" {
		exe = v
	}
	bin := filepath.Dir(exe)
	prefix := filepath.Dir(bin)
	if kit.FileExists(filepath.Join(prefix, "pyvenv.cfg")) {
		// A venv: its own site-packages (one lib/python3.X in it). One that
		// also reads the system's (include-system-site-packages) is asked.
		matches, _ := filepath.Glob(filepath.Join(prefix, "lib", "python3.*", "site-packages"))
		return append(dirs, matches...)
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return dirs
	}
	m := pythonVersion.FindStringSubmatch(filepath.Base(real))
	if m == nil {
		return dirs // which python3.X it is, only running it says
	}
	lib := "python" + m[1]
	prefix = filepath.Dir(filepath.Dir(real))
	dirs = append(dirs, filepath.Join(prefix, "lib", lib, "site-packages"), filepath.Join(prefix, "lib", lib, "dist-packages"))
	if prefix == "/usr" { // Debian's: apt's packages, and pip's in /usr/local
		dirs = append(dirs, "/usr/lib/python3/dist-packages", filepath.Join("/usr/local/lib", lib, "dist-packages"))
	}
	if kit.EnvValue(env, "PYTHONNOUSERSITE") == "" {
		if home := kit.EnvValue(env, "HOME"); home != "" {
			dirs = append(dirs, filepath.Join(home, ".local", "lib", lib, "site-packages"))
		}
	}
	return dirs
}

// pyenvVersion is the interpreter a pyenv shim runs for a command in dir,
// found as pyenv finds it: PYENV_VERSION, else the nearest .python-version
// from dir up, else pyenv's global version file; "" when exe is no pyenv
// shim or the version is the system's (pyenv then searches PATH). Of
// several versions (3.12:3.11), the first.
func pyenvVersion(exe, dir string, env []string) string {
	p, _, _ := pyenvPick(exe, dir, env)
	return p
}

// pyenvPick is pyenvVersion's interpreter, the version it is of and how
// many versions pyenv was given.
func pyenvPick(exe, dir string, env []string) (path, version string, versions int) {
	shims := filepath.Dir(exe)
	if filepath.Base(shims) != "shims" {
		return "", "", 0
	}
	root := filepath.Dir(shims)
	if r := kit.EnvValue(env, "PYENV_ROOT"); r != "" && filepath.Clean(r) != root {
		return "", "", 0
	}
	if !exists(filepath.Join(root, "versions")) {
		return "", "", 0 // another tool's shims
	}
	// pyenv reads PYENV_VERSION, else the nearest .python-version from
	// its directory (PYENV_DIR, else the working one) up, else its global
	// version file.
	var names []string
	if v := kit.EnvValue(env, "PYENV_VERSION"); v != "" {
		names = strings.Split(v, ":")
	} else {
		if kit.EnvValue(env, "PYENV_DIR") != "" {
			return "", "", 0 // not dir: strobe does not look there
		}
		file := filepath.Join(root, "version")
		for d := range kit.Ancestors(dir) {
			if p := filepath.Join(d, ".python-version"); exists(p) {
				file = p
				break
			}
		}
		names = versionFile(file)
	}
	if len(names) == 0 {
		return "", "", 0
	}
	version = pyenvResolve(root, names[0])
	if version == "" {
		return "", "", 0
	}
	p := filepath.Join(root, "versions", version, "bin", filepath.Base(exe))
	if !kit.FileExists(p) {
		return "", "", 0
	}
	return p, version, len(names)
}

// pyenvResolve is the installed version pyenv takes name for
// (pyenv-version-name): name itself, or without "python-", when it is
// installed under that name, else the latest installed version it is a
// prefix of, for each in that order. "" for the system's, and where
// pyenvLatest cannot say what pyenv would choose.
func pyenvResolve(root, name string) string {
	if name == "" || name == "system" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return ""
	}
	bare := strings.TrimPrefix(name, "python-")
	for _, v := range []string{name, bare} {
		if exists(filepath.Join(root, "versions", v)) {
			return v
		}
	}
	for _, v := range []string{name, bare} {
		if latest := pyenvLatest(root, v); latest != "" {
			return latest
		}
	}
	return ""
}

// pyenvDropped are the installed versions pyenv-latest never picks for a
// prefix: development, source and pre-release builds, and free-threaded
// ones (3.13.0t) unless asked for.
var pyenvDropped = lazyre.New(`(-dev|-src|-latest|(a|b|rc)[0-9]+|[0-9]t)$`)

// pyenvNumeric is a release's version, CPython's, of four parts at most.
var pyenvNumeric = lazyre.New(`^[0-9]+(\.[0-9]+){0,3}$`)

// pyenvLatest is the installed version pyenv-latest picks for prefix (3.12
// for the newest 3.12.x): of the versions it begins, followed by "." or
// "-", the greatest, by the first part then the next three as numbers.
// "" when none is installed, and wherever pyenv's sort of names other
// than CPython's numbered releases (3.12.1-debug, pypy3.10-7.3.17) would
// decide, where a candidate is a link (pyenv-virtualenv's environments
// are), and for free-threaded prefixes (3.13t).
func pyenvLatest(root, prefix string) string {
	if !pyenvNumeric.MatchString(prefix) {
		return ""
	}
	entries, err := os.ReadDir(filepath.Join(root, "versions"))
	if err != nil {
		return ""
	}
	best, bestKey, tie := "", [4]int{}, false
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix+".") && !strings.HasPrefix(name, prefix+"-") || pyenvDropped.MatchString(name) {
			continue
		}
		if e.Type()&os.ModeSymlink != 0 {
			return ""
		}
		if !e.IsDir() {
			continue // pyenv lists directories
		}
		if !pyenvNumeric.MatchString(name) {
			return ""
		}
		var key [4]int
		for i, part := range strings.Split(name, ".") {
			key[i], _ = strconv.Atoi(part)
		}
		switch c := slices.Compare(key[:], bestKey[:]); {
		case best == "" || c > 0:
			best, bestKey, tie = name, key, false
		case c == 0:
			tie = true // 3.12 and 3.12.0: the order of names decides
		}
	}
	if tie {
		return ""
	}
	return best
}

// versionFile is the versions a small pyenv version file names, as pyenv
// reads it: the first word of each line that is not empty or a comment (a
// word may hold several, colon-separated); nil for none, which pyenv takes
// for the system's Python.
func versionFile(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 4096 {
		return nil
	}
	var names []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		names = append(names, strings.Split(f[0], ":")...)
	}
	return names
}
