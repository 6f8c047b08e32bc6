package kit

import (
	"strings"
	"unicode/utf8"
)

// MaxMessage bounds a failure or build error message; the test's output
// keeps the rest.
const MaxMessage = 2 << 10

// Clip keeps the start of s, at most MaxMessage bytes, cut on a rune.
func Clip(s string) string { return ClipTo(s, MaxMessage, "…") }

// ClipTo keeps the first n bytes of s, cut before a rune that would not
// fit, and adds mark when it cut anything.
func ClipTo(s string, n int, mark string) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + mark
}

// ClipTail keeps the end of s, where a failure's reason usually is.
func ClipTail(s string) string {
	if len(s) <= MaxMessage {
		return s
	}
	cut := len(s) - MaxMessage
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return "…" + s[cut:]
}

// JoinAnd joins a list as a sentence does: "a", "a and b", "a, b and c".
func JoinAnd(list []string) string {
	if len(list) < 2 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}
