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

// Split splits s into words, honouring single quotes, double quotes,
// backslashes and $'…' (which Quote prints). It does not expand anything. Operators that need a real
// shell (pipes, redirections, &&, ;, $, backticks) are reported by
// NeedsShell; Split treats them as ordinary characters.
func Split(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '$' && i+1 < len(s) && s[i+1] == '\'':
			end, ok := readANSIC(s, i+2, &cur)
			if !ok {
				return nil, errors.New("unterminated $' quote")
			}
			i = end
			inWord = true
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

// readANSIC writes the text of a $'…' quote that starts at s[i], after
// its $', with its escapes read, and returns the index of its closing
// quote.
func readANSIC(s string, i int, b *strings.Builder) (int, bool) {
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			return i, true
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'x':
			n, v := 0, 0
			for ; n < 2 && i+1 < len(s) && strings.IndexByte("0123456789abcdefABCDEF", s[i+1]) >= 0; n++ {
				i++
				v = v*16 + hexValue(s[i])
			}
			if n == 0 {
				b.WriteString(`\x`)
			} else {
				b.WriteByte(byte(v))
			}
		default:
			if e >= '0' && e <= '7' {
				v := int(e - '0')
				for n := 1; n < 3 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '7'; n++ {
					i++
					v = v*8 + int(s[i]-'0')
				}
				b.WriteByte(byte(v))
				break
			}
			if strings.IndexByte("\\'\"?", e) < 0 {
				b.WriteByte('\\') // an unknown escape stays as it is
			}
			b.WriteByte(e)
		}
	}
	return i, false
}

func hexValue(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
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
	inSingle, inANSIC, inDouble := false, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inANSIC && c == '\\':
			i++
		case inSingle:
			inSingle = c != '\''
			inANSIC = inANSIC && inSingle
		case c == '\\':
			i++
		case c == '$' && !inDouble && i+1 < len(s) && s[i+1] == '\'':
			inSingle, inANSIC = true, true
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
// A word holding a control character (a test named "a\nb") is quoted
// $'…' with the character escaped (bash, zsh, ksh and busybox read it): in
// plain quotes it would be printed raw, a command cut over two lines.
func Quote(w string) string {
	if w == "" {
		return "''"
	}
	if strings.ContainsFunc(w, isControl) {
		return ansiC(w)
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

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// ansiC is w quoted $'…': a backslash and a single quote escaped, a
// control character as \n, \t, \r or \xHH (two digits: the shells read
// no more).
func ansiC(w string) string {
	var b strings.Builder
	b.WriteString("$'")
	for _, r := range w {
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
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
