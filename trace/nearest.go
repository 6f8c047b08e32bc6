package trace

import (
	"sort"
	"strings"
)

// Nearest returns up to n of names closest to what pattern asks for, for
// Meta.Unmatched: names whose last segment contains the pattern's last
// word come first, then the smallest edit distance between the last
// segments; project names (project reports them) win ties. It is meant
// for the few thousand names of one program.
func Nearest(p Pattern, names []string, project func(name string) bool, n int) []string {
	want := strings.ToLower(lastWord(p))
	if want == "" || n <= 0 {
		return nil
	}
	type cand struct {
		name    string
		score   int
		project bool
	}
	var cs []cand
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		score := nearestScore(want, name)
		// Far from the word asked for is no help at all.
		if score > max(2, len(want)/2) {
			continue
		}
		cs = append(cs, cand{name, score, project != nil && project(name)})
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score < cs[j].score
		}
		if cs[i].project != cs[j].project {
			return cs[i].project
		}
		return cs[i].name < cs[j].name
	})
	var out []string
	for _, c := range cs {
		if len(out) == n {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// nearestScore is how far name's last segment is from want (lower case):
// 0 when one contains the other, else the edit distance.
func nearestScore(want, name string) int {
	got := strings.ToLower(lastSegment(name))
	if strings.Contains(got, want) || strings.Contains(want, got) && len(got) > 2 {
		return 0
	}
	return editDistance(want, got)
}

// lastWord is the last segment of a pattern without its wildcards: the
// function name someone was after.
func lastWord(p Pattern) string {
	raw := strings.TrimSpace(p.Raw)
	switch p.Kind {
	case KindFile:
		raw = strings.TrimSuffix(p.File, ".go")
	case KindProject:
		return ""
	}
	w := strings.Trim(lastSegment(raw), "*()")
	return strings.ReplaceAll(w, "*", "")
}

// lastSegment is what follows the last "::", "." or "/" of a name, the
// parameter list left out.
func lastSegment(name string) string {
	if i := strings.IndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
		name = name[:i]
	}
	i := max(strings.LastIndex(name, "::")+1, strings.LastIndexAny(name, "./"))
	return name[i+1:]
}

// editDistance is Levenshtein's distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
