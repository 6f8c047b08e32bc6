package node

import (
	"path/filepath"
	"strings"
)

// envFileTools are the programs a test script runs the framework under to
// load an env file (`dotenv -e .env.test -- jest`, `env-cmd -f
// .env.test jest`), with their options that take a value (a
// `--name=value` form takes none). strobe runs the framework under the
// same program, with the same words: it reads the files as the script
// does (dotenv-cli expands ${VAR}, env-cmd reads .env-cmdrc), and no
// value of them reaches the answer.
var envFileTools = map[string]map[string]bool{
	"dotenv":  {"-e": true, "-v": true, "-p": true},
	"env-cmd": {"-f": true, "--file": true, "-e": true, "--environments": true, "-r": true, "--rc-file": true},
}

// envFileWrapper splits a command run under an env file's program into
// the program's words (up to and with its "--") and the command: nil and
// w when it is not one. dotenv's -c takes a value only when it is not an
// option or the command (`-c test -- jest`): a bare `-c` before the
// command is not told from one, and such a script is not split.
func envFileWrapper(w []string) (wrap, rest []string) {
	if len(w) < 2 {
		return nil, w
	}
	name := filepath.Base(w[0])
	valued, ok := envFileTools[name]
	if !ok {
		return nil, w
	}
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case a == "--":
			return w[:i+1], w[i+1:]
		case !strings.HasPrefix(a, "-"):
			return w[:i], w[i:]
		case valued[a]:
			i++ // its value
		case name == "dotenv" && a == "-c":
			if i+2 < len(w) && w[i+2] == "--" {
				i++ // -c ENV -- …
			} else if i+1 < len(w) && w[i+1] != "--" {
				return nil, w
			}
		}
	}
	return nil, w
}

// WrapperArgv is what the run's command starts with to run the framework
// under the script's env file program (dotenv-cli's or env-cmd's, from
// the package's node_modules/.bin), as the script does; nil when the
// script has none. A program the package has not installed is a usage
// error that says what to install.
func (s Script) WrapperArgv(p *Package) ([]string, error) {
	if len(s.Wrapper) == 0 {
		return nil, nil
	}
	name := filepath.Base(s.Wrapper[0])
	bin, err := p.Bin(name, name)
	if err != nil {
		return nil, err
	}
	return append([]string{bin}, s.Wrapper[1:]...), nil
}

// wrapperPrefix is the wrapper's words as a pasted rerun starts with
// them: npx runs the package's program.
func (s Script) wrapperPrefix() []string {
	if len(s.Wrapper) == 0 {
		return nil
	}
	return append([]string{"npx", filepath.Base(s.Wrapper[0])}, s.Wrapper[1:]...)
}
