package skills

import (
	"regexp"
	"strings"
	"testing"
)

// The strictest rules among the agents that read these files: Agent Skills
// names (lowercase letters, digits, single hyphens, at most 64, equal to the
// directory), a one-line description of at most 1024 characters (Codex
// shortens long ones in its list, so ours stay under 500), and front matter
// that YAML reads as plain scalars.
var name = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestFrontMatter(t *testing.T) {
	all := All()
	if len(all) != 2 {
		t.Fatalf("%d skills, want strobe-tdd and strobe-tests", len(all))
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			text := string(s.Content)
			if !strings.HasPrefix(text, "---\n") {
				t.Fatal("no front matter")
			}
			head, body, ok := strings.Cut(text[4:], "\n---\n")
			if !ok || strings.TrimSpace(body) == "" {
				t.Fatal("front matter not closed, or no body")
			}
			fields := map[string]string{}
			for _, l := range strings.Split(head, "\n") {
				k, v, ok := strings.Cut(l, ": ")
				if !ok {
					t.Fatalf("not a key: value line: %q", l)
				}
				if strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.ContainsAny(v[:1], `"'&*!|>%@[{`+"`") {
					t.Errorf("%s: %q is not a plain YAML scalar", k, v)
				}
				fields[k] = v
			}
			if fields["name"] != s.Name || !name.MatchString(s.Name) || len(s.Name) > 64 {
				t.Errorf("name %q (directory %q)", fields["name"], s.Name)
			}
			if d := fields["description"]; d == "" || len(d) > 500 {
				t.Errorf("description of %d characters", len(d))
			}
			if len(fields) != 2 {
				t.Errorf("fields %v: keep to name and description, which every agent reads", fields)
			}
			if !strings.Contains(body, "debug_test") {
				t.Error("the skill does not mention debug_test")
			}
		})
	}
}
