package node

import "strings"

// The commands a stopped run's hint gives for the rest of its selection
// (jest, vitest, mocha, node:test): the run's own command with a name
// pattern that leaves out the tests that were running.

// Except is a JavaScript name pattern (jest's and vitest's -t, mocha's
// --grep, node 20's --test-name-pattern) that matches what own matches
// ("" for any name) except a name that one of names (patterns, escaped)
// matches whole: a negative lookahead at the start, then own in a
// lookahead of its own, so that its anchors still hold where they held
// and its groups keep their numbers.
func Except(names []string, own string) string {
	p := "^(?!(?:" + strings.Join(names, "|") + ")$)"
	if own != "" {
		p += `(?=[\s\S]*?(?:` + own + "))"
	}
	return p
}

// restSafe: see RestSafe.
var restSafe = strings.NewReplacer(";", `\x3b`, ". ", `.\x20`)

// RestSafe keeps "; " and ". " out of a pattern QuoteRegexp escaped: a
// hint ends its command at "; " (the runner puts the run's --env in front
// of the command up to there), and a person reads ". " as the end of the
// sentence. `\x3b` and `\x20` match the same characters.
func RestSafe(pattern string) string { return restSafe.Replace(pattern) }

// RestName is the pattern of a test's name for Except: SpacedPattern
// (escaped, each sep matching a space or itself), kept pasteable in a
// hint (RestSafe).
func RestName(name, sep string) string {
	return RestSafe(SpacedPattern(name, sep))
}

// Slashed reads a name pattern written as a regular expression literal,
// "/SOURCE/FLAGS", which mocha's --grep and node's --test-name-pattern
// take: its source and flags; false for a plain pattern.
func Slashed(p string) (source, flags string, ok bool) {
	if len(p) < 2 || p[0] != '/' {
		return "", "", false
	}
	i := strings.LastIndexByte(p, '/')
	if i == 0 || strings.Trim(p[i+1:], "dgimsuvy") != "" {
		return "", "", false
	}
	return p[1:i], p[i+1:], true
}

// CutOption takes out of argv every occurrence of the options names
// ("-t VALUE", "--testNamePattern=VALUE") and answers the rest and the
// last one's value ("" when there was none).
func CutOption(argv []string, names ...string) (rest []string, value string) {
	rest, values := CutOptions(argv, names...)
	if len(values) > 0 {
		value = values[len(values)-1]
	}
	return rest, value
}

// CutOptions is CutOption with every occurrence's value, in order (node
// takes --test-name-pattern more than once: a test runs when one matches).
func CutOptions(argv []string, names ...string) (rest, values []string) {
	for i := 0; i < len(argv); i++ {
		a := argv[i]
		took := false
		for _, n := range names {
			if a == n && i+1 < len(argv) {
				values, took = append(values, argv[i+1]), true
				i++
				break
			}
			if v, ok := strings.CutPrefix(a, n+"="); ok {
				values, took = append(values, v), true
				break
			}
		}
		if !took {
			rest = append(rest, a)
		}
	}
	return rest, values
}
