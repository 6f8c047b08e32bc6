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
	needs := false
	unquoted(s, func(i int, inDouble bool) bool {
		c := s[i]
		switch {
		case c == '`':
			needs = true
		case c == '$':
			// A $ the shell expands: $NAME, ${…}, $(…), $1, $@, $?…; one
			// it leaves as it is (go test -run '^$' unquoted, a $ at a
			// word's end) needs no shell.
			needs = i+1 < len(s) && expands(s[i+1])
		case !inDouble && strings.IndexByte("|&;<>(){}*?[]~#", c) >= 0:
			needs = true
		case !inDouble && c == '=' && i > 0 && !strings.ContainsAny(s[:i], " \t"):
			needs = true // VAR=value cmd
		}
		return !needs
	})
	return needs
}

// Commands cuts a script into its commands at the shell's control
// operators outside quotes (&&, ||, ;, |, &, a newline), each trimmed; a
// redirection's & (2>&1, &>file) stays in its command. ok is false when a
// quote is left open.
func Commands(s string) (cmds []string, ok bool) {
	start, skip := 0, -1
	cut := func(end, next int) {
		if c := strings.TrimSpace(s[start:end]); c != "" {
			cmds = append(cmds, c)
		}
		start = next
	}
	closed := unquoted(s, func(i int, inDouble bool) bool {
		c := s[i]
		switch {
		case inDouble || i == skip:
		case c == '&' || c == '|':
			switch {
			case i+1 < len(s) && s[i+1] == c: // && and ||
				cut(i, i+2)
				skip = i + 1
			case c == '&' && (i > 0 && (s[i-1] == '>' || s[i-1] == '<') || i+1 < len(s) && s[i+1] == '>'):
				// a redirection: part of the command
			default:
				cut(i, i+1)
			}
		case c == ';' || c == '\n':
			cut(i, i+1)
		}
		return true
	})
	if !closed {
		return nil, false
	}
	cut(len(s), len(s))
	return cmds, true
}

// unquoted calls fn with each byte of s that no single quote and no
// backslash escapes, saying whether it is inside double quotes, until fn
// returns false; the quotes themselves are not passed. It reports whether
// every quote was closed (true when fn stopped the scan).
func unquoted(s string, fn func(i int, inDouble bool) bool) bool {
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
		default:
			if !fn(i, inDouble) {
				return true
			}
		}
	}
	return !inSingle && !inDouble
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

// Assignments cuts the variable assignments off the front of a simple
// command (`TZ=UTC NODE_OPTIONS='--a --b' jest`): env holds each as
// NAME=VALUE, its quotes removed, and rest is the command after them. An
// assignment whose value the shell would expand ($HOME, `…`) ends the
// cut: it and what follows are rest, which then needs a shell.
func Assignments(s string) (env []string, rest string) {
	return assignments(s, true)
}

// EnvAssignments is Assignments for the arguments of env(1) (`env TZ=UTC
// 'NAME=a b' jest`, s without the env): env reads NAME=VALUE from each
// word once the shell has removed its quotes, wherever they were.
func EnvAssignments(s string) (env []string, rest string) {
	return assignments(s, false)
}

func assignments(s string, shellSyntax bool) (env []string, rest string) {
	for {
		s = strings.TrimLeft(s, " \t")
		end := len(s)
		unquoted(s, func(i int, _ bool) bool {
			if s[i] == ' ' || s[i] == '\t' || s[i] == '\n' {
				end = i
				return false
			}
			return true
		})
		raw := s[:end]
		n := assignedName(raw)
		switch {
		case shellSyntax && (n == 0 || NeedsShell(raw[n+1:])):
			return env, s
		case !shellSyntax && NeedsShell(" "+raw): // an argument: its = is no assignment to the shell
			return env, s
		}
		w, err := Split(raw)
		if err != nil || len(w) != 1 || assignedName(w[0]) == 0 {
			return env, s
		}
		env = append(env, w[0])
		s = s[end:]
	}
}

// assignedName is the length of the NAME of s's first word when that word
// is an assignment NAME=…, else 0.
func assignedName(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=' && i > 0:
			return i
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9':
		default:
			return 0
		}
	}
	return 0
}
