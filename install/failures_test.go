package install

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func one(t *testing.T, o Options, agent string) Result {
	t.Helper()
	o.Agents = []string{agent}
	rs, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("%d results", len(rs))
	}
	return rs[0]
}

func TestUnparseableFileIsLeftAlone(t *testing.T) {
	for _, tc := range []struct {
		agent, file, content, pos string
	}{
		{"cursor", ".cursor/mcp.json", "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"b\"},,\n  }\n}\n", "line 3, column 27"},
		{"codex", ".codex/config.toml", "model = \"o3\"\n[mcp_servers.x\ncommand = \"y\"\n", "line 2, column 15"},
		{"gemini", ".gemini/settings.json", "[1, 2]\n", "line 1"},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			home := setup(t, testCase{files: map[string]string{tc.file: tc.content}})
			r := one(t, opts(home, testCase{}), tc.agent)
			var pe *ParseError
			if r.Outcome != Failed || !errors.As(r.Err, &pe) {
				t.Fatalf("got %s %v, want a parse failure", r.Outcome, r.Err)
			}
			if !strings.Contains(r.Detail, "~/"+tc.file) || !strings.Contains(r.Detail, tc.pos) {
				t.Errorf("detail %q should name the file and %q", r.Detail, tc.pos)
			}
			b, _ := os.ReadFile(filepath.Join(home, tc.file))
			if string(b) != tc.content {
				t.Errorf("file changed:\n%s", b)
			}
			if _, err := os.Stat(filepath.Join(home, tc.file) + backupSuffix); err == nil {
				t.Errorf("backup written for an untouched file")
			}
			if _, err := os.Stat(filepath.Join(home, filepath.Dir(tc.file), "skills")); err == nil {
				t.Errorf("skills installed although the config failed")
			}
		})
	}
}

func TestReadOnlyFile(t *testing.T) {
	home := setup(t, testCase{files: map[string]string{".gemini/settings.json": geminiJSON}})
	p := filepath.Join(home, ".gemini/settings.json")
	os.Chmod(p, 0o444)
	r := one(t, opts(home, testCase{}), "gemini")
	var ro *ReadOnlyError
	if r.Outcome != Failed || !errors.As(r.Err, &ro) || !strings.Contains(r.Detail, "read-only") {
		t.Fatalf("got %s %v, want read-only", r.Outcome, r.Err)
	}
	if b, _ := os.ReadFile(p); string(b) != geminiJSON {
		t.Errorf("read-only file changed")
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode changed to %v", fi.Mode())
	}
	if _, err := os.Stat(filepath.Join(home, ".gemini/skills")); err == nil {
		t.Errorf("skills installed although the config was refused")
	}
}

func TestSymlinkedConfigIsEditedAtItsTarget(t *testing.T) {
	home := setup(t, testCase{files: map[string]string{"dotfiles/codex.toml": codexTOML, ".codex/": ""}})
	link := filepath.Join(home, ".codex/config.toml")
	if err := os.Symlink("../dotfiles/codex.toml", link); err != nil {
		t.Fatal(err)
	}
	mustRun(t, opts(home, testCase{agents: []string{"codex"}}))
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the symlink was replaced: %v %v", fi.Mode(), err)
	}
	target := filepath.Join(home, "dotfiles/codex.toml")
	b, _ := os.ReadFile(target)
	if !strings.Contains(string(b), "[mcp_servers.strobe]") {
		t.Errorf("target not edited:\n%s", b)
	}
	validate(t, target, false)
	if bk, _ := os.ReadFile(target + backupSuffix); string(bk) != codexTOML {
		t.Errorf("backup not beside the target")
	}
	un := opts(home, testCase{agents: []string{"codex"}})
	un.Uninstall = true
	mustRun(t, un)
	if b, _ := os.ReadFile(target); string(b) != codexTOML {
		t.Errorf("uninstall through the link:\n%s", b)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	tc := cases[5] // all
	home := setup(t, tc)
	before := tree(t, home)
	var diff bytes.Buffer
	o := opts(home, tc)
	o.DryRun, o.Diff = true, &diff
	for a, out := range outcomes(mustRun(t, o)) {
		if out != WouldChange {
			t.Errorf("%s: %s", a, out)
		}
	}
	if after := tree(t, home); !equalTrees(before, after) {
		t.Errorf("dry run changed files")
	}
	entries, _ := os.ReadDir(filepath.Join(home, ".codex"))
	if len(entries) != 1 {
		t.Errorf("dry run left files in ~/.codex: %v", entries)
	}
	for _, want := range []string{
		"--- a/~/.codex/config.toml\n+++ b/~/.codex/config.toml\n",
		"+[mcp_servers.strobe]\n",
		"+++ b/~/.claude/skills/strobe-tdd/SKILL.md\n",
		"+    \"strobe\": {\n",
	} {
		if !strings.Contains(diff.String(), want) {
			t.Errorf("diff lacks %q:\n%s", want, diff.String())
		}
	}
}

func TestChangedBinaryUpdatesOnlyTheEntry(t *testing.T) {
	home := setup(t, testCase{files: map[string]string{".codex/config.toml": codexTOML, ".cursor/mcp.json": cursorJSON}})
	mustRun(t, opts(home, testCase{}))
	// the user adds a key of their own to strobe's entry
	p := filepath.Join(home, ".codex/config.toml")
	b, _ := os.ReadFile(p)
	b = bytes.Replace(b, []byte("tool_timeout_sec = 300\n"), []byte("tool_timeout_sec = 300\nstartup_timeout_sec = 30 # mine\n"), 1)
	os.WriteFile(p, b, 0o600)

	o := opts(home, testCase{})
	o.Binary = "/usr/local/bin/strobe"
	for a, out := range outcomes(mustRun(t, o)) {
		if out != Updated && out != Skipped {
			t.Errorf("%s: %s, want updated", a, out)
		}
	}
	got, _ := os.ReadFile(p)
	want := bytes.Replace(b, []byte(`command = "`+bin+`"`), []byte(`command = "/usr/local/bin/strobe"`), 1)
	if !bytes.Equal(got, want) {
		t.Errorf("codex:\n got:\n%s\nwant:\n%s", got, want)
	}
	c, _ := os.ReadFile(filepath.Join(home, ".cursor/mcp.json"))
	if !strings.Contains(string(c), `"strobe": {"command": "/usr/local/bin/strobe", "args": ["mcp"]}`) {
		t.Errorf("cursor:\n%s", c)
	}
}

func TestEntryStrobeDoesNotEdit(t *testing.T) {
	inline := "[mcp_servers]\nstrobe = { command = \"/old/strobe\", args = [\"mcp\"] }\n"
	home := setup(t, testCase{files: map[string]string{".codex/config.toml": inline}})
	r := one(t, opts(home, testCase{}), "codex")
	if r.Outcome != Failed || !strings.Contains(r.Detail, "by hand") {
		t.Fatalf("got %s %q", r.Outcome, r.Detail)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".codex/config.toml")); string(b) != inline {
		t.Errorf("changed:\n%s", b)
	}
	// uninstall can still take the line out
	o := opts(home, testCase{})
	o.Uninstall = true
	if r := one(t, o, "codex"); r.Outcome != Removed {
		t.Fatalf("uninstall: %s %v", r.Outcome, r.Err)
	}
	if b, _ := os.ReadFile(filepath.Join(home, ".codex/config.toml")); string(b) != "[mcp_servers]\n" {
		t.Errorf("after uninstall:\n%q", b)
	}
}

func TestDetection(t *testing.T) {
	home := t.TempDir()
	o := opts(home, testCase{})
	for _, r := range mustRun(t, o) {
		if r.Outcome != Skipped || !strings.Contains(r.Detail, "on PATH") {
			t.Errorf("%s: %s %q", r.Agent, r.Outcome, r.Detail)
		}
	}
	o.LookPath = func(name string) (string, error) {
		if name == "gemini" {
			return "/usr/bin/gemini", nil
		}
		return "", errors.New("no")
	}
	got := outcomes(mustRun(t, o))
	if got["gemini"] != Installed || got["claude"] != Skipped {
		t.Errorf("%v", got)
	}
	// naming an agent installs it even where nothing of it is found
	o.Agents = []string{"claude-code"}
	if got := outcomes(mustRun(t, o)); got["claude"] != Installed || len(got) != 1 {
		t.Errorf("%v", got)
	}
	o.Agents = []string{"vim"}
	var ue *UsageError
	if _, err := Run(o); !errors.As(err, &ue) {
		t.Errorf("unknown agent: %v", err)
	}
	o.Agents, o.Getenv = []string{"codex"}, func(k string) string {
		if k == "CODEX_HOME" {
			return filepath.Join(home, "codexhome")
		}
		return ""
	}
	mustRun(t, o)
	if _, err := os.Stat(filepath.Join(home, "codexhome/config.toml")); err != nil {
		t.Errorf("CODEX_HOME not honoured: %v", err)
	}
}

func TestOpenCodeServersSpelling(t *testing.T) {
	v2 := "{\n  \"mcp\": {\n    \"servers\": {\n      \"x\": {\"type\": \"local\", \"command\": [\"x\"]}\n    }\n  }\n}\n"
	home := setup(t, testCase{files: map[string]string{".config/opencode/opencode.json": v2}})
	mustRun(t, opts(home, testCase{agents: []string{"opencode"}}))
	b, _ := os.ReadFile(filepath.Join(home, ".config/opencode/opencode.json"))
	if !strings.Contains(string(b), "\"x\": {\"type\": \"local\", \"command\": [\"x\"]},\n      \"strobe\": {") {
		t.Errorf("strobe not beside the other servers:\n%s", b)
	}
}

func TestGeminiAllowList(t *testing.T) {
	home := setup(t, testCase{files: map[string]string{".gemini/settings.json": "{\"mcp\": {\"allowed\": [\"github\"]}}\n"}})
	r := one(t, opts(home, testCase{}), "gemini")
	if r.Outcome != Installed || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "mcp.allowed") {
		t.Errorf("%s %v", r.Outcome, r.Notes)
	}
}

func TestFileChangedWhileEditing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(p, []byte("{}\n"), 0o600)
	f, err := load(p)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte("{\"agent\": \"wrote this\"}\n"), 0o600)
	if err := f.write([]byte("{\"strobe\": 1}\n"), 0o600); err == nil || !strings.Contains(err.Error(), "changed while") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "{\"agent\": \"wrote this\"}\n" {
		t.Errorf("the agent's write was lost: %s", b)
	}
}

func TestNotAnObject(t *testing.T) {
	home := setup(t, testCase{files: map[string]string{".cursor/mcp.json": "{\"mcpServers\": null}\n"}})
	r := one(t, opts(home, testCase{}), "cursor")
	if r.Outcome != Failed || !strings.Contains(r.Detail, "~/.cursor/mcp.json: \"mcpServers\" is not an object") || !strings.Contains(r.Detail, "by hand") {
		t.Errorf("%s %q", r.Outcome, r.Detail)
	}
}

// TestUninstallGivesBackWhatInstallFound: an empty "mcp": {} the user had
// is one the editor prunes on uninstall, as it prunes one install made;
// while the file is what install made of it, uninstall puts back the
// backup instead. Once the file changed, the editor undoes the install.
func TestUninstallGivesBackWhatInstallFound(t *testing.T) {
	const had = "{\"mcp\": {}, \"theme\": \"dark\"}\n"
	rel := ".config/opencode/opencode.json"
	home := setup(t, testCase{files: map[string]string{rel: had}})
	path := filepath.Join(home, rel)
	mustRun(t, opts(home, testCase{agents: []string{"opencode"}}))
	un := opts(home, testCase{agents: []string{"opencode"}})
	un.Uninstall = true
	mustRun(t, un)
	if b, _ := os.ReadFile(path); string(b) != had {
		t.Errorf("uninstall right after install:\n%q\nwant the bytes install found:\n%q", b, had)
	}

	mustRun(t, opts(home, testCase{agents: []string{"opencode"}}))
	installed, _ := os.ReadFile(path)
	edited := bytes.Replace(installed, []byte(`"dark"`), []byte(`"light"`), 1)
	os.WriteFile(path, edited, 0o600)
	mustRun(t, un)
	b, _ := os.ReadFile(path)
	if bytes.Contains(b, []byte("strobe")) || !bytes.Contains(b, []byte(`"light"`)) {
		t.Errorf("uninstall after the user's edit: %q, want strobe's entry gone and the edit kept", b)
	}
}
