package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"

	"strobe/skills"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const bin = "/opt/strobe/bin/strobe"

// Realistic existing configs: other MCP servers, comments, unusual layout.
var (
	claudeJSON = `{
  "numStartups": 42,
  "theme": "dark",
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {"GITHUB_TOKEN": "x"}
    }
  },
  "projects": {
    "/home/dev/app": {
      "allowedTools": [],
      "mcpServers": {}
    }
  },
  "userID": "abc"
}
`
	codexTOML = `# Codex settings, kept in dotfiles
model = "gpt-5-codex"
approval_policy = "on-request" # ask first

[mcp_servers.context7]
command = "npx"
args = ["-y", "@upstash/context7-mcp"]
startup_timeout_sec = 20

[mcp_servers.context7.env]
LOG = "info"

# profiles below
[profiles.fast]
model = "gpt-5-mini"
`
	opencodeJSONC = `{
	"$schema": "https://opencode.ai/config.json",
	// my theme
	"theme": "tokyonight",
	"mcp": {
		/* a remote one */
		"sentry": {
			"type": "remote",
			"url": "https://mcp.sentry.dev/mcp",
		},
	},
}
`
	cursorJSON = `{"mcpServers":{"linear":{"url":"https://mcp.linear.app/sse"}}}
`
	geminiJSON = `{
    "theme": "GitHub",
    "selectedAuthType": "oauth-personal",
    "general": {"vimMode": true}
}
`
)

type testCase struct {
	name    string
	files   map[string]string // relative to HOME
	agents  []string
	project string // relative to HOME
	crlf    bool
}

var cases = []testCase{
	{name: "claude", files: map[string]string{".claude.json": claudeJSON, ".claude/settings.json": "{}\n"}},
	{name: "codex", files: map[string]string{".codex/config.toml": codexTOML}},
	{name: "opencode", files: map[string]string{".config/opencode/opencode.jsonc": opencodeJSONC}},
	{name: "cursor", files: map[string]string{".cursor/mcp.json": cursorJSON}},
	{name: "gemini", files: map[string]string{".gemini/settings.json": geminiJSON}},
	{name: "all", files: map[string]string{
		".claude.json": claudeJSON, ".codex/config.toml": codexTOML,
		".config/opencode/opencode.jsonc": opencodeJSONC, ".cursor/mcp.json": cursorJSON,
		".gemini/settings.json": geminiJSON,
	}},
	{name: "crlf", crlf: true, files: map[string]string{
		".claude.json": claudeJSON, ".codex/config.toml": codexTOML, ".gemini/settings.json": geminiJSON,
	}},
	{name: "empty-dirs", files: map[string]string{".codex/": "", ".gemini/": "", ".cursor/": "", ".claude/": "", ".config/opencode/": ""}},
	{name: "project", project: "app", agents: []string{"claude", "codex", "opencode", "cursor", "gemini"}, files: map[string]string{
		".claude.json": claudeJSON,
		"app/.mcp.json": `{
  "mcpServers": {
    "db": {"command": "pg-mcp", "args": []}
  }
}
`,
		"app/.codex/config.toml": "# project codex\n[mcp_servers.db]\ncommand = \"pg-mcp\"\n",
		"app/README":             "app\n",
	}},
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// setup writes the case's files into a fresh HOME.
func setup(t *testing.T, tc testCase) string {
	home := t.TempDir()
	for p, content := range tc.files {
		full := filepath.Join(home, p)
		if strings.HasSuffix(p, "/") {
			os.MkdirAll(full, 0o755)
			continue
		}
		if tc.crlf {
			content = crlf(content)
		}
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func opts(home string, tc testCase) Options {
	o := Options{Home: home, Binary: bin, Agents: tc.agents,
		Getenv:   func(string) string { return "" },
		LookPath: func(string) (string, error) { return "", errors.New("not on PATH") }}
	if tc.project != "" {
		o.Project = filepath.Join(home, tc.project)
	}
	return o
}

// tree reads every file under dir except backups and skills.
func tree(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, backupSuffix) || strings.HasSuffix(p, "SKILL.md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return out
}

func mustRun(t *testing.T, o Options) []Result {
	t.Helper()
	rs, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Outcome == Failed {
			t.Fatalf("%s failed: %v", r.Agent, r.Err)
		}
	}
	return rs
}

func outcomes(rs []Result) map[string]Outcome {
	m := map[string]Outcome{}
	for _, r := range rs {
		m[r.Agent] = r.Outcome
	}
	return m
}

func TestGolden(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := setup(t, tc)
			before := tree(t, home)
			rs := mustRun(t, opts(home, tc))
			after := tree(t, home)

			golden := filepath.Join("testdata", "golden", tc.name)
			if *update {
				os.RemoveAll(golden)
				for p, c := range after {
					if tc.crlf {
						c = strings.ReplaceAll(c, "\r\n", "\n")
					}
					os.MkdirAll(filepath.Join(golden, filepath.Dir(p)), 0o755)
					os.WriteFile(filepath.Join(golden, p), []byte(c), 0o644)
				}
			}
			want := tree(t, golden)
			for p, w := range want {
				if tc.crlf {
					w = crlf(w)
				}
				if after[p] != w {
					t.Errorf("%s:\n got:\n%s\nwant:\n%s", p, after[p], w)
				}
			}
			for p := range after {
				if _, ok := want[p]; !ok {
					t.Errorf("unexpected file %s", p)
				}
			}
			for p, a := range after {
				b, existed := before[p]
				if a == b {
					continue
				}
				validate(t, filepath.Join(home, p), tc.crlf && existed)
				if bk, err := os.ReadFile(filepath.Join(home, p) + backupSuffix); existed && (err != nil || string(bk) != b) {
					t.Errorf("%s: backup missing or not the original: %v", p, err)
				}
			}
			for _, r := range rs {
				if r.Outcome == Skipped {
					continue
				}
				if r.Outcome != Installed {
					t.Errorf("%s: %s, want installed", r.Agent, r.Outcome)
				}
				checkSkills(t, home, r, true)
			}

			// a second run changes nothing and says so
			for a, o := range outcomes(mustRun(t, opts(home, tc))) {
				if o != Current && o != Skipped {
					t.Errorf("second run: %s %s, want already current", a, o)
				}
			}
			if again := tree(t, home); !equalTrees(again, after) {
				t.Errorf("second run changed files")
			}

			// uninstall gives back the original bytes
			un := opts(home, tc)
			un.Uninstall = true
			installed := outcomes(rs)
			for a, o := range outcomes(mustRun(t, un)) {
				want := NotInstalled
				if installed[a] == Installed {
					want = Removed
				}
				if o != want {
					t.Errorf("uninstall: %s %s, want %s", a, o, want)
				}
			}
			if got := tree(t, home); !equalTrees(got, before) {
				for p := range union(got, before) {
					g, gok := got[p]
					b, bok := before[p]
					if g != b || gok != bok {
						t.Errorf("after uninstall %s:\n got:\n%q\nwant:\n%q", p, got[p], before[p])
					}
				}
			}
			for _, r := range rs {
				if r.Outcome != Skipped {
					checkSkills(t, home, r, false)
				}
			}
		})
	}
}

func union(a, b map[string]string) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// checkSkills finds each skill in the agent's skills directory (or not).
func checkSkills(t *testing.T, home string, r Result, present bool) {
	t.Helper()
	n := 0
	for _, f := range r.Files {
		if !strings.HasSuffix(f, "SKILL.md") {
			continue
		}
		n++
		p := filepath.Join(home, strings.TrimPrefix(f, "~"))
		if !filepath.IsAbs(f) && !strings.HasPrefix(f, "~") {
			t.Fatalf("odd path %s", f)
		}
		if strings.HasPrefix(f, "/") {
			p = f
		}
		b, err := os.ReadFile(p)
		if present && err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if !present && err == nil {
			t.Errorf("%s still there after uninstall", f)
		}
		if present && !bytes.Contains(b, []byte("name: "+filepath.Base(filepath.Dir(p))+"\n")) {
			t.Errorf("%s: front matter does not name its directory", f)
		}
	}
	if n != len(skills.All()) {
		t.Errorf("%s: %d skill files, want %d", r.Agent, n, len(skills.All()))
	}
}

// validate parses a written config with its format's real parser and
// checks strobe's entry.
func validate(t *testing.T, path string, crlfWanted bool) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if crlfWanted && bytes.Count(b, []byte("\n")) != bytes.Count(b, []byte("\r\n")) {
		t.Errorf("%s: mixed line ends", path)
	}
	var doc map[string]any
	if strings.HasSuffix(path, ".toml") {
		if err := toml.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		s := doc["mcp_servers"].(map[string]any)["strobe"].(map[string]any)
		if s["command"] != bin || s["tool_timeout_sec"] != int64(CodexToolTimeoutSec) {
			t.Errorf("%s: strobe entry %v", path, s)
		}
		return
	}
	std, err := hujson.Standardize(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if strings.HasSuffix(path, ".json") && !strings.Contains(path, "opencode") && !json.Valid(b) {
		t.Errorf("%s is not standard JSON (which Claude Code, Cursor and Gemini CLI read)", path)
	}
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var entry any
	if m, ok := doc["mcpServers"].(map[string]any); ok {
		entry = m["strobe"]
	} else if m, ok := doc["mcp"].(map[string]any); ok {
		entry = m["strobe"]
	}
	e, ok := entry.(map[string]any)
	if !ok {
		t.Fatalf("%s: no strobe entry in %v", path, doc)
	}
	if e["command"] != bin && !(e["type"] == "local" && e["command"].([]any)[0] == bin) {
		t.Errorf("%s: strobe entry %v", path, e)
	}
}
