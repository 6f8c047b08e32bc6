package kit

import "unicode/utf8"

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
