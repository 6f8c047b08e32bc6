package python

import (
	"os"
	"path/filepath"

	"strobe/adapters/kit"
	"strobe/internal/lazyre"
)

// Direct is in as strobe runs it for a command in dir, with what its
// environment needs beside the run's own: a pyenv shim (a bash script that
// runs pyenv, which reads the version files and starts more bash before
// Python starts: 50 ms here, on every run) is replaced by the interpreter
// it would run, given what `pyenv exec` gives it, the version's bin
// directory first on PATH and PYENV_VERSION, so that a python the tests
// start is the same one as through the shim. Shown stays the shim's name,
// for reruns. Wherever pyenv would do what strobe does not repeat, the
// shim stays: a hook of a plugin that strobe does not know (pyenv runs
// its hooks on every exec), several versions, a prefix (3.12 for the
// newest 3.12.x installed) that pyenvLatest cannot resolve as pyenv
// would, the system's.
func (in Interpreter) Direct(dir string, env []string) (Interpreter, []string) {
	p, version, versions := pyenvPick(in.Path, dir, env)
	if p == "" || versions != 1 || !knownHooksOnly(filepath.Dir(filepath.Dir(in.Path)), in.Path, env) {
		return in, nil
	}
	bin := filepath.Dir(p)
	path := bin
	if old := kit.EnvValue(env, "PATH"); old != "" {
		path += string(os.PathListSeparator) + old
	}
	return Interpreter{Path: p, Shown: in.Shown}, []string{"PATH=" + path, "PYENV_VERSION=" + version}
}

// pyenvHooks are the hooks pyenv runs on its way to exec a command that
// strobe knows leave a Python run as it is: pyenv's own pip-rehash (for
// pip and `-m pip` alone), and pyenv-virtualenv's `which` hooks, which
// look elsewhere only when the version has no such command. pyenv runs
// the hooks of exec, which and version-name on that way.
var pyenvHooks = map[string]map[string]bool{
	"exec":         {"pip-rehash.bash": true},
	"which":        {"conda.bash": true, "python-config.bash": true, "system-site-packages.bash": true},
	"version-name": {},
}

// shimTarget reads where a pyenv shim's pyenv is installed: `exec
// "/root/.pyenv/libexec/pyenv" exec "$program" "$@"`.
var shimTarget = lazyre.New(`(?m)^exec "([^"]+)/libexec/pyenv" exec `)

// knownHooksOnly says whether every hook pyenv would run through shim is
// one of pyenvHooks. Its hook path is as pyenv builds it: PYENV_HOOK_PATH,
// then root's pyenv.d, the installation's, the system's directories and
// every plugin's etc/pyenv.d.
func knownHooksOnly(root, shim string, env []string) bool {
	b, err := os.ReadFile(shim)
	if err != nil || len(b) > 4096 {
		return false
	}
	m := shimTarget.FindSubmatch(b)
	if m == nil {
		return false // not a shim of the pyenv this knows
	}
	dirs := filepath.SplitList(kit.EnvValue(env, "PYENV_HOOK_PATH"))
	dirs = append(dirs, filepath.Join(root, "pyenv.d"), filepath.Join(string(m[1]), "pyenv.d"),
		"/usr/etc/pyenv.d", "/usr/local/etc/pyenv.d", "/etc/pyenv.d", "/usr/lib/pyenv/hooks")
	plugins, _ := filepath.Glob(filepath.Join(root, "plugins", "*", "etc", "pyenv.d"))
	dirs = append(dirs, plugins...)
	for _, d := range dirs {
		if d == "" {
			continue
		}
		for kind, known := range pyenvHooks {
			hooks, _ := filepath.Glob(filepath.Join(d, kind, "*.bash"))
			for _, h := range hooks {
				if !known[filepath.Base(h)] {
					return false
				}
			}
		}
	}
	return true
}
