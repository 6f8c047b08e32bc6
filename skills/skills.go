// Package skills holds the agent skill files strobe installs: markdown with
// YAML front matter (the Agent Skills format that Claude Code, Codex,
// OpenCode, Cursor and Gemini CLI all read), embedded in the binary so
// `strobe install` needs nothing beside it.
package skills

import (
	"embed"
	"io/fs"
)

//go:embed */SKILL.md
var files embed.FS

// Skill is one skill: its name (also its directory name) and the bytes of
// its SKILL.md.
type Skill struct {
	Name    string
	Content []byte
}

// All returns every skill, ordered by name.
func All() []Skill {
	dirs, err := fs.ReadDir(files, ".")
	if err != nil {
		panic(err) // embedded at build time: cannot fail
	}
	var out []Skill
	for _, d := range dirs {
		b, err := files.ReadFile(d.Name() + "/SKILL.md")
		if err != nil {
			panic(err)
		}
		out = append(out, Skill{Name: d.Name(), Content: b})
	}
	return out
}
