// Package install finds the coding agents a developer uses and registers
// strobe with each: strobe's MCP server (`<strobe> mcp`) in the agent's own
// config file, in the agent's own format, and the skills (package skills) in
// the agent's skills directory.
//
// It never damages a user's file: it parses the file, changes only strobe's
// entry with format-preserving edits (comments, layout and line ends stay),
// checks the result with the format's parser (everything but strobe's entry
// must decode the same), writes atomically with a backup beside the file,
// and edits a symlinked config at its target. A file that does not parse or
// is read-only is reported and left as it is. Running it twice changes
// nothing; Uninstall removes what it added.
package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"strobe/skills"
)

// CodexToolTimeoutSec is the tool_timeout_sec strobe asks of Codex (whose
// default is 60 s): a debug_test call waits up to its waitMs (45 s by
// default) and an agent may ask for longer waits.
const CodexToolTimeoutSec = 300

// Options says what to install where. Home, Getenv and LookPath stand for
// the user's environment so tests can point them at a temporary HOME.
type Options struct {
	Home      string
	Getenv    func(string) string
	LookPath  func(string) (string, error)
	Binary    string   // absolute path of the strobe binary to register
	Project   string   // project directory for project scope; "" for user scope
	Agents    []string // only these agents (names or aliases); none = every agent found
	DryRun    bool     // print diffs to Diff, write nothing
	Uninstall bool
	Diff      io.Writer
}

// Outcome is what happened to one agent.
type Outcome string

const (
	Installed    Outcome = "installed"
	Updated      Outcome = "updated"
	Current      Outcome = "already current"
	WouldChange  Outcome = "would change"
	Removed      Outcome = "removed"
	NotInstalled Outcome = "not installed"
	Skipped      Outcome = "skipped"
	Failed       Outcome = "failed"
)

// Result is one agent's line of the report.
type Result struct {
	Agent   string // short name: claude, codex, opencode, cursor, gemini
	Title   string // Claude Code, ...
	Outcome Outcome
	Detail  string   // why skipped, what failed, or where strobe went
	Files   []string // the files strobe changed (or would), as the user names them
	Check   string   // a command that shows the agent sees strobe
	Notes   []string // what the user must still know or do
	Err     error
}

// UsageError is a request that cannot run (an unknown agent name).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

type env struct {
	Options
}

func (e *env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

func (e *env) home(p ...string) string { return filepath.Join(append([]string{e.Home}, p...)...) }

func (e *env) project(p ...string) string {
	return filepath.Join(append([]string{e.Project}, p...)...)
}

func (e *env) xdgConfig() string {
	if d := e.getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return e.home(".config")
}

func (e *env) codexHome() string {
	if d := e.getenv("CODEX_HOME"); filepath.IsAbs(d) {
		return d
	}
	return e.home(".codex")
}

// show names a path the way the user would type it.
func (e *env) show(p string) string {
	if e.Home != "" && strings.HasPrefix(p, e.Home+string(filepath.Separator)) {
		return "~" + p[len(e.Home):]
	}
	return p
}

// config is where and how an agent keeps its MCP servers.
type config struct {
	file  string
	toml  bool
	path  []string // key path of strobe's entry, ending in "strobe"
	entry []field
}

type agent struct {
	name, title string
	aliases     []string
	commands    []string              // on PATH
	userTraces  func(e *env) []string // directories or files it leaves in HOME
	projTraces  []string              // ... and in a project
	config      func(e *env, mcp []string) config
	skills      func(e *env) string
	check       string
	notes       func(e *env, doc map[string]any) []string // after install
}

var agents = []agent{
	{
		name: "claude", title: "Claude Code", aliases: []string{"claude-code"},
		commands:   []string{"claude"},
		userTraces: func(e *env) []string { return []string{e.home(".claude"), e.home(".claude.json")} },
		projTraces: []string{".mcp.json", ".claude"},
		config: func(e *env, mcp []string) config {
			f := e.home(".claude.json")
			if e.Project != "" {
				f = e.project(".mcp.json")
			}
			return config{file: f, path: []string{"mcpServers", "strobe"},
				entry: []field{{"type", "stdio"}, {"command", mcp[0]}, {"args", mcp[1:]}}}
		},
		skills: func(e *env) string {
			if e.Project != "" {
				return e.project(".claude", "skills")
			}
			return e.home(".claude", "skills")
		},
		check: "claude mcp list",
		notes: func(e *env, _ map[string]any) []string {
			if e.Project != "" {
				return []string{"Claude Code asks each user to approve the servers of .mcp.json the first time it starts there"}
			}
			return nil
		},
	},
	{
		name: "codex", title: "Codex",
		commands:   []string{"codex"},
		userTraces: func(e *env) []string { return []string{e.codexHome()} },
		projTraces: []string{".codex"},
		config: func(e *env, mcp []string) config {
			f := filepath.Join(e.codexHome(), "config.toml")
			if e.Project != "" {
				f = e.project(".codex", "config.toml")
			}
			return config{file: f, toml: true, path: []string{"mcp_servers", "strobe"},
				entry: []field{{"command", mcp[0]}, {"args", mcp[1:]}, {"tool_timeout_sec", CodexToolTimeoutSec}}}
		},
		skills: func(e *env) string {
			if e.Project != "" {
				return e.project(".agents", "skills")
			}
			return filepath.Join(e.codexHome(), "skills")
		},
		check: "codex mcp list",
		notes: func(e *env, _ map[string]any) []string {
			if e.Project != "" {
				return []string{"Codex reads .codex/config.toml only in a project you have marked trusted"}
			}
			return nil
		},
	},
	{
		name: "opencode", title: "OpenCode",
		commands:   []string{"opencode"},
		userTraces: func(e *env) []string { return []string{filepath.Join(e.xdgConfig(), "opencode")} },
		projTraces: []string{"opencode.json", "opencode.jsonc", ".opencode"},
		config: func(e *env, mcp []string) config {
			dir := filepath.Join(e.xdgConfig(), "opencode")
			if e.Project != "" {
				dir = e.Project
			}
			f := filepath.Join(dir, "opencode.json")
			if _, err := os.Stat(f); err != nil {
				if _, err := os.Stat(f + "c"); err == nil {
					f += "c"
				}
			}
			return config{file: f, path: []string{"mcp", "strobe"},
				entry: []field{{"type", "local"}, {"command", mcp}}}
		},
		skills: func(e *env) string {
			if e.Project != "" {
				return e.project(".opencode", "skills")
			}
			return filepath.Join(e.xdgConfig(), "opencode", "skills")
		},
		check: "opencode mcp list",
	},
	{
		name: "cursor", title: "Cursor", aliases: []string{"cursor-agent"},
		commands:   []string{"cursor", "cursor-agent"},
		userTraces: func(e *env) []string { return []string{e.home(".cursor")} },
		projTraces: []string{".cursor"},
		config: func(e *env, mcp []string) config {
			f := e.home(".cursor", "mcp.json")
			if e.Project != "" {
				f = e.project(".cursor", "mcp.json")
			}
			return config{file: f, path: []string{"mcpServers", "strobe"},
				entry: []field{{"command", mcp[0]}, {"args", mcp[1:]}}}
		},
		skills: func(e *env) string {
			if e.Project != "" {
				return e.project(".cursor", "skills")
			}
			return e.home(".cursor", "skills")
		},
		check: "cursor-agent mcp list (or Cursor Settings > MCP)",
	},
	{
		name: "gemini", title: "Gemini CLI", aliases: []string{"gemini-cli"},
		commands:   []string{"gemini"},
		userTraces: func(e *env) []string { return []string{e.home(".gemini")} },
		projTraces: []string{".gemini"},
		config: func(e *env, mcp []string) config {
			f := e.home(".gemini", "settings.json")
			if e.Project != "" {
				f = e.project(".gemini", "settings.json")
			}
			return config{file: f, path: []string{"mcpServers", "strobe"},
				entry: []field{{"command", mcp[0]}, {"args", mcp[1:]}}}
		},
		skills: func(e *env) string {
			if e.Project != "" {
				return e.project(".gemini", "skills")
			}
			return e.home(".gemini", "skills")
		},
		check: "gemini mcp list",
		notes: func(e *env, doc map[string]any) []string {
			// mcp.allowed, when set, is the list of the only servers Gemini CLI starts
			var out []string
			if v, ok := lookup(doc, []string{"mcp", "allowed"}); ok && !listHas(v, "strobe") {
				out = append(out, `settings.json's mcp.allowed does not list "strobe": add it there, or Gemini CLI will not start strobe`)
			}
			if v, ok := lookup(doc, []string{"mcp", "excluded"}); ok && listHas(v, "strobe") {
				out = append(out, `settings.json's mcp.excluded lists "strobe": take it out, or Gemini CLI will not start strobe`)
			}
			return out
		},
	},
}

// Names lists the agents strobe knows, by their short names.
func Names() []string {
	var out []string
	for _, a := range agents {
		out = append(out, a.name)
	}
	return out
}

func lookupAgent(name string) (agent, bool) {
	name = strings.ToLower(name)
	for _, a := range agents {
		if a.name == name || contains(a.aliases, name) {
			return a, true
		}
	}
	return agent{}, false
}

func listHas(v any, x string) bool {
	l, _ := v.([]any)
	for _, y := range l {
		if y == x {
			return true
		}
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// Run installs (or with Uninstall removes) strobe for each agent found, or
// for each agent named in Agents, and reports one Result per agent.
func Run(o Options) ([]Result, error) {
	if !filepath.IsAbs(o.Binary) {
		return nil, &UsageError{fmt.Sprintf("the strobe binary path %q is not absolute", o.Binary)}
	}
	if o.Home == "" {
		return nil, &UsageError{"no home directory: set HOME"}
	}
	if o.Project != "" {
		abs, err := filepath.Abs(o.Project)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return nil, &UsageError{fmt.Sprintf("--project %s is not a directory", o.Project)}
		}
		o.Project = abs
	}
	if o.Diff == nil {
		o.Diff = io.Discard
	}
	named := map[string]bool{}
	for _, n := range o.Agents {
		a, ok := lookupAgent(n)
		if !ok {
			return nil, &UsageError{fmt.Sprintf("unknown agent %q: use one of %s", n, strings.Join(Names(), ", "))}
		}
		named[a.name] = true
	}
	e := &env{o}
	var out []Result
	for _, a := range agents {
		if len(named) > 0 && !named[a.name] {
			continue
		}
		r := Result{Agent: a.name, Title: a.title, Check: a.check}
		// uninstall looks at every agent: removing finds nothing where strobe never went
		if trace, found := e.detect(a); !found && !named[a.name] && !o.Uninstall {
			r.Outcome, r.Detail = Skipped, "not found ("+trace+")"
			out = append(out, r)
			continue
		}
		e.run(a, &r)
		out = append(out, r)
	}
	return out, nil
}

// detect looks for the agent's traces; it returns the one it found, or
// what it looked for.
func (e *env) detect(a agent) (string, bool) {
	var looked []string
	for _, p := range a.userTraces(e) {
		if _, err := os.Stat(p); err == nil {
			return e.show(p), true
		}
		looked = append(looked, e.show(p))
	}
	if e.Project != "" {
		for _, p := range a.projTraces {
			if _, err := os.Stat(e.project(p)); err == nil {
				return p, true
			}
		}
	}
	for _, c := range a.commands {
		if e.LookPath != nil {
			if p, err := e.LookPath(c); err == nil {
				return p, true
			}
		}
	}
	return "no " + strings.Join(looked, ", no ") + ", no " + strings.Join(a.commands, " or ") + " on PATH", false
}

// change is one file strobe will write or remove.
type change struct {
	f      *file
	data   []byte // new bytes; nil with remove
	remove bool
	mode   fs.FileMode
	backup bool // keep a backup of the old bytes (false: they are strobe's own)
}

func (e *env) run(a agent, r *Result) {
	fail := func(err error) {
		r.Outcome, r.Err, r.Detail = Failed, err, err.Error()
	}
	c := a.config(e, []string{e.Binary, "mcp"})
	f, err := load(c.file)
	if err != nil {
		fail(err)
		return
	}
	shown := e.show(c.file)
	if !c.toml && !e.Uninstall && f.exists {
		c.path = openCodeV2(c, f.data)
	}
	var changes []change
	var next []byte
	defer func() {
		if r.Outcome == Failed || e.Uninstall || a.notes == nil {
			return
		}
		doc, _ := c.decode(shown, next)
		r.Notes = a.notes(e, doc)
	}()
	switch {
	case e.Uninstall && !f.exists:
		next = nil
	case e.Uninstall && c.toml:
		next, err = tomlRemove(shown, f.data, c.path)
	case e.Uninstall:
		next, err = jsonRemove(shown, f.data, c.path)
	default:
		next, err = c.set(shown, f.data)
	}
	if err != nil {
		if errors.Is(err, errNotEditable) {
			err = fmt.Errorf("%w; left untouched: set it by hand to run %s mcp", err, e.Binary)
		}
		fail(err)
		return
	}
	if e.Uninstall && f.exists {
		if before, ok := c.installedFrom(shown, f); ok {
			next = before
		}
	}
	if f.exists && !bytes.Equal(next, f.data) || !f.exists && !e.Uninstall {
		if err := verify(c, shown, f.data, next, e.Uninstall); err != nil {
			fail(err)
			return
		}
		ch := change{f: f, data: next, mode: 0o600, backup: true}
		if e.Project != "" {
			ch.mode = 0o644
		}
		if e.Uninstall && emptyFile(c, next) {
			ch.remove, ch.data = true, nil
		}
		changes = append(changes, ch)
	}
	dir := a.skills(e)
	for _, s := range skills.All() {
		sf, err := load(filepath.Join(dir, s.Name, "SKILL.md"))
		if err != nil {
			fail(err)
			return
		}
		switch {
		case e.Uninstall && sf.exists:
			changes = append(changes, change{f: sf, remove: true, backup: !bytes.Equal(sf.data, s.Content)})
		case !e.Uninstall && (!sf.exists || !bytes.Equal(sf.data, s.Content)):
			changes = append(changes, change{f: sf, data: s.Content, mode: 0o644, backup: true})
		}
	}
	configChanged, skillsChanged := false, false
	for _, ch := range changes {
		r.Files = append(r.Files, e.show(ch.f.path))
		if ch.f.path == c.file {
			configChanged = true
		} else {
			skillsChanged = true
		}
	}
	summary := where(shown, c.path, configChanged, e.show(dir), skillsChanged)
	if len(changes) == 0 {
		if e.Uninstall {
			r.Outcome, r.Detail = NotInstalled, "nothing of strobe's in "+shown+" or "+e.show(dir)
		} else {
			r.Outcome, r.Detail = Current, where(shown, c.path, true, e.show(dir), true)
		}
		return
	}
	if e.DryRun {
		for _, ch := range changes {
			writeDiff(e.Diff, e.show(ch.f.path), ch.f.data, ch.data)
		}
		r.Outcome = WouldChange
		r.Detail = summary
		return
	}
	// refuse before writing anything, so an agent is never half set up
	for _, ch := range changes {
		if err := ch.f.writable(); err != nil {
			fail(err)
			return
		}
	}
	for _, ch := range changes {
		var err error
		switch {
		case ch.remove && ch.backup:
			err = ch.f.remove()
		case ch.remove:
			err = os.Remove(ch.f.real)
		default:
			err = ch.f.write(ch.data, ch.mode)
		}
		if err != nil {
			fail(fmt.Errorf("writing %s: %w", e.show(ch.f.path), err))
			return
		}
		if ch.remove && filepath.Base(ch.f.path) == "SKILL.md" {
			os.Remove(filepath.Dir(ch.f.real))               // only if empty
			os.Remove(filepath.Dir(filepath.Dir(ch.f.real))) // the skills directory, if strobe's were its only ones
		}
	}
	switch {
	case e.Uninstall:
		r.Outcome = Removed
	case !hadEntry(c, shown, f):
		r.Outcome = Installed
	default:
		r.Outcome = Updated
	}
	r.Detail = summary
}

// where says in a few words where strobe's entry and skills are.
func where(config string, path []string, configToo bool, skills string, skillsToo bool) string {
	var parts []string
	if configToo {
		parts = append(parts, config+" ("+strings.Join(path, ".")+")")
	}
	if skillsToo {
		parts = append(parts, "skills in "+skills)
	}
	return strings.Join(parts, ", ")
}

// openCodeV2 puts strobe under mcp.servers when the file already keeps its
// servers there (OpenCode 2's spelling); otherwise under mcp (1.x).
func openCodeV2(c config, data []byte) []string {
	if c.path[0] != "mcp" {
		return c.path
	}
	_, doc, err := parseJSON("", data)
	if err != nil {
		return c.path
	}
	if v, ok := lookup(doc, []string{"mcp", "servers"}); ok {
		if m, ok := v.(map[string]any); ok {
			for _, s := range m {
				if sm, ok := s.(map[string]any); ok && (sm["type"] != nil || sm["command"] != nil) {
					return []string{"mcp", "servers", "strobe"}
				}
			}
		}
	}
	return c.path
}

// hadEntry says whether the file held an entry named strobe before.
func hadEntry(c config, name string, f *file) bool {
	if !f.exists {
		return false
	}
	doc, err := c.decode(name, f.data)
	if err != nil {
		return false
	}
	_, ok := lookup(doc, c.path)
	return ok
}

// emptyFile says whether an uninstall left a file with nothing in it (an
// empty JSON object, or no TOML at all), which means strobe created it.
func emptyFile(c config, data []byte) bool {
	if c.toml {
		return len(bytes.TrimSpace(data)) == 0
	}
	return string(bytes.TrimSpace(data)) == "{}"
}

// installedFrom is the file's backup when the file is still, byte for
// byte, what install made of it (and the backup held no entry of
// strobe's): uninstall then gives the user's bytes back exactly, which
// the editor cannot always do (an empty "mcp": {} the user had is pruned
// like one install made).
func (c config) installedFrom(name string, f *file) ([]byte, bool) {
	before, err := os.ReadFile(f.real + backupSuffix)
	if err != nil || hadEntry(c, name, &file{exists: true, data: before}) {
		return nil, false
	}
	made, err := c.set(name, before)
	if err != nil || !bytes.Equal(made, f.data) {
		return nil, false
	}
	return before, true
}

// set puts strobe's entry into src, in the config's format.
func (c config) set(name string, src []byte) ([]byte, error) {
	if c.toml {
		return tomlSet(name, src, c.path, c.entry)
	}
	return jsonSet(name, src, c.path, c.entry)
}

// decode reads src as the config's format.
func (c config) decode(name string, src []byte) (map[string]any, error) {
	if c.toml {
		return decodeTOML(name, src)
	}
	_, doc, err := parseJSON(name, src)
	return doc, err
}

// verify decodes the file before and after with the format's own parser:
// everything but strobe's entry must be equal, and strobe's entry must say
// what strobe wants (or be gone, after uninstall).
func verify(c config, name string, before, after []byte, uninstall bool) error {
	decode := func(b []byte) (map[string]any, error) {
		if len(bytes.TrimSpace(b)) == 0 {
			return map[string]any{}, nil
		}
		return c.decode(name, b)
	}
	old, err := decode(before)
	if err != nil {
		return err
	}
	now, err := decode(after)
	if err != nil {
		return fmt.Errorf("%s: strobe's edit would not parse (%v); left untouched, please report this", name, err)
	}
	if !sameRest(old, now, c.path) {
		return fmt.Errorf("%s: strobe's edit would change more than its own entry; left untouched, please report this", name)
	}
	if _, ok := lookup(now, c.path); uninstall && ok {
		return fmt.Errorf("%s: strobe's entry is still there after removing it; left untouched, please report this", name)
	}
	if !uninstall && !entryCurrent(now, c.path, c.entry) {
		return fmt.Errorf("%s: strobe's entry did not come out as intended; left untouched, please report this", name)
	}
	return nil
}

// Manual says how to register strobe by hand, for when no agent is found.
func Manual(binary string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No coding agent found. Register strobe by hand: its MCP server is `%s mcp` (stdio).\n", binary)
	fmt.Fprintf(&b, "  Claude Code:  claude mcp add --scope user strobe -- %s mcp\n", binary)
	fmt.Fprintf(&b, "  Codex:        in ~/.codex/config.toml:\n                [mcp_servers.strobe]\n                command = %s\n                args = [\"mcp\"]\n                tool_timeout_sec = %d\n", tomlString(binary), CodexToolTimeoutSec)
	fmt.Fprintf(&b, "  OpenCode:     in ~/.config/opencode/opencode.json: \"mcp\": {\"strobe\": {\"type\": \"local\", \"command\": [%s, \"mcp\"]}}\n", jsonString(binary))
	fmt.Fprintf(&b, "  Cursor:       in ~/.cursor/mcp.json: \"mcpServers\": {\"strobe\": {\"command\": %s, \"args\": [\"mcp\"]}}\n", jsonString(binary))
	fmt.Fprintf(&b, "  Gemini CLI:   in ~/.gemini/settings.json: \"mcpServers\": {\"strobe\": {\"command\": %s, \"args\": [\"mcp\"]}}\n", jsonString(binary))
	b.WriteString("Or name the agent to set it up anyway: strobe install --agent NAME (" + strings.Join(Names(), ", ") + ").\n")
	return b.String()
}
