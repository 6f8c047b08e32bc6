package node

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"strobe/adapters/kit"
	"strobe/internal/lazyre"
	"strobe/internal/shell"
)

// nodeOptionsRefused is node's word on an option NODE_OPTIONS may not
// carry: "node: --stack-size= is not allowed in NODE_OPTIONS".
var nodeOptionsRefused = lazyre.New(`(?m)^\S*node\S*: (--?[\w-]+=?) is not allowed in NODE_OPTIONS`)

// KeepNodeOnly finds, among node's own options of a `node FLAGS program`
// script (`node --stack-size=256 ./node_modules/.bin/jest`, xmldom's),
// those NODE_OPTIONS refuses (V8's --stack-size): given there, every node
// process of the run exited 9 at once, and the run answered crashed. It
// asks node itself, with env (the run's environment) in dir, one option
// at a time as node names them; those go on node's command line
// (NodeArgv), the others stay in NODE_OPTIONS, which the framework's
// workers inherit. A script without node options asks nothing.
func (s *Script) KeepNodeOnly(ctx context.Context, env []string, dir string) {
	for range nodeFlags(s.Words) {
		kept := s.optionsFlags()
		if len(kept) == 0 {
			return
		}
		refused, ok := refusedOption(ctx, env, dir, kept)
		if !ok {
			return
		}
		i := slices.IndexFunc(kept, func(f string) bool {
			return f == refused || strings.HasPrefix(f, refused) && strings.HasSuffix(refused, "=")
		})
		if i < 0 {
			return
		}
		s.nodeOnly = append(s.nodeOnly, kept[i])
	}
}

// refusals keeps node's answers to refusedOption, by the node program
// (its path, size and time, so that another node is asked again) and the
// options asked about: each question starts node (62 ms of a run here),
// and a project's script asks the same at every run the daemon serves.
var refusals sync.Map // refusalKey → string: the option refused, "" for none

type refusalKey struct {
	node    string
	size    int64
	mtime   time.Time
	options string
}

// refusedOption asks node, with env in dir, whether NODE_OPTIONS may
// carry options, and answers the first it refuses as node names it
// (--stack-size=); ok is false when node accepts them all or could not
// say (not found, stopped: not remembered).
func refusedOption(ctx context.Context, env []string, dir string, options []string) (refused string, ok bool) {
	var key refusalKey
	if p, err := shell.LookPath("node", env); err == nil {
		if fi, err := os.Stat(p); err == nil {
			key = refusalKey{node: p, size: fi.Size(), mtime: fi.ModTime(), options: strings.Join(options, " ")}
		}
	}
	if key.node != "" {
		if v, hit := refusals.Load(key); hit {
			return v.(string), v.(string) != ""
		}
	}
	probe := append(slices.Clone(env), "NODE_OPTIONS="+strings.Join(options, " "))
	_, stderr, err := kit.RunTool(ctx, kit.Tool{Dir: dir, Env: probe, Timeout: 10 * time.Second, MaxOutput: 4096}, "node", "-e", "0")
	m := nodeOptionsRefused.FindStringSubmatch(string(stderr))
	switch {
	case err == nil:
		refused = ""
	case m != nil:
		refused = m[1]
	default:
		return "", false // node failed otherwise: ask again next time
	}
	if key.node != "" {
		refusals.Store(key, refused)
	}
	return refused, refused != ""
}

// optionsFlags are the script's node options that go in NODE_OPTIONS:
// all but those it refuses (KeepNodeOnly).
func (s Script) optionsFlags() []string {
	var flags []string
	for _, f := range nodeFlags(s.Words) {
		if !slices.Contains(s.nodeOnly, f) {
			flags = append(flags, f)
		}
	}
	return flags
}

// NodeArgv is what the run's command, and its rerun, start with to give
// node the options NODE_OPTIONS refuses: `node --stack-size=256`, before
// the framework's program; nil when there are none.
func (s Script) NodeArgv() []string {
	if len(s.nodeOnly) == 0 {
		return nil
	}
	return append([]string{"node"}, s.nodeOnly...)
}

// RelBin is a framework's program as a rerun pasted in root names it
// (node_modules/.bin/jest), absolute when it lies outside root.
func RelBin(root, bin string) string {
	if rel, ok := kit.Rel(root, bin); ok {
		return rel
	}
	return bin
}

// npmConfigRef is a script's reference to a value of package.json's
// "config", which npm hands the scripts it runs as
// npm_package_config_NAME: `node --stack-size=$npm_package_config_stack`.
var npmConfigRef = lazyre.New(`\$(?:\{(npm_package_config_\w+)\}|(npm_package_config_\w+))`)

// npmConfig is package.json's "config" as npm's environment for a script
// (npm_package_config_NAME=value), its string, number and boolean values;
// nil when it has none.
func (p *Package) npmConfig() map[string]string {
	raw, ok := p.Raw["config"]
	if !ok {
		return nil
	}
	var cfg map[string]any
	if json.Unmarshal(raw, &cfg) != nil {
		return nil
	}
	env := map[string]string{}
	for k, v := range cfg {
		switch v := v.(type) {
		case string:
			env["npm_package_config_"+k] = v
		case float64:
			env["npm_package_config_"+k] = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			env["npm_package_config_"+k] = strconv.FormatBool(v)
		}
	}
	return env
}

// expandConfig writes a command's references to package.json's "config"
// (npmConfigRef) as the values npm gives them, when each is a plain word;
// the command is left as it is when one is not, or when it holds a
// single quote (inside which the shell would not expand).
func expandConfig(cmd string, cfg map[string]string) string {
	if len(cfg) == 0 || strings.Contains(cmd, "'") {
		return cmd
	}
	plain := true
	out := npmConfigRef.Re().ReplaceAllStringFunc(cmd, func(ref string) string {
		m := npmConfigRef.FindStringSubmatch(ref)
		v, ok := cfg[m[1]+m[2]]
		if !ok || v == "" || shell.Quote(v) != v {
			plain = false
			return ref
		}
		return v
	})
	if !plain {
		return cmd
	}
	return out
}

// configEnv is npm's environment for package.json's "config", sorted:
// a test may read it (xmldom's checks its stack size there).
func configEnv(cfg map[string]string) []string {
	var env []string
	for k, v := range cfg {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env
}
