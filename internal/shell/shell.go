// Package shell splits a command line into words the way a POSIX shell
// would for simple commands, and quotes words so that a printed command can
// be pasted back into a shell.
package shell

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Split splits s into words, honouring single quotes, double quotes and
// backslashes. It does not expand anything. Operators that need a real
// shell (pipes, redirections, &&, ;, $, backticks) are reported by
// NeedsShell; Split treats them as ordinary characters.
func Split(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`\n", s[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated double quote")
			}
			inWord = true
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			inWord = true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// NeedsShell reports whether s uses shell syntax beyond words and quotes
// (outside single quotes), so it must run through /bin/sh -c.
func NeedsShell(s string) bool {
	inSingle, inDouble := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inSingle:
			inSingle = c != '\''
		case c == '\\':
			i++
		case c == '\'' && !inDouble:
			inSingle = true
		case c == '"':
			inDouble = !inDouble
		case c == '`':
			return true
		case c == '$':
			// A $ the shell expands: $NAME, ${…}, $(…), $1, $@, $?…; one
			// it leaves as it is (go test -run '^$' unquoted, a $ at a
			// word's end) needs no shell.
			if i+1 < len(s) && expands(s[i+1]) {
				return true
			}
		case !inDouble && strings.IndexByte("|&;<>(){}*?[]~#", c) >= 0:
			return true
		case !inDouble && c == '=' && i > 0 && !strings.ContainsAny(s[:i], " \t"):
			return true // VAR=value cmd
		}
	}
	return false
}

// expands says whether a $ followed by c is a shell expansion.
func expands(c byte) bool {
	return c == '_' || c == '{' || c == '(' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("@*#?$!-", c) >= 0
}

// Quote returns w quoted for a POSIX shell, unchanged when it is safe bare.
func Quote(w string) string {
	if w == "" {
		return "''"
	}
	safe := true
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:=@%+,", c)) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces.
func Join(argv []string) string {
	q := make([]string, len(argv))
	for i, w := range argv {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}

// LookPath finds prog as a shell with environment env would: a name with a
// slash is taken as it is, any other is searched in env's PATH (the last
// PATH= entry wins, as in exec). A nil env means this process's. A daemon
// runs commands for clients whose PATH is not its own, so exec.LookPath,
// which reads the process's PATH, would find the wrong program.
func LookPath(prog string, env []string) (string, error) {
	if strings.ContainsRune(prog, '/') {
		return prog, nil
	}
	path := os.Getenv("PATH")
	if env != nil {
		path = ""
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "PATH="); ok {
				path = v
			}
		}
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, prog)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w", prog, exec.ErrNotFound)
}
