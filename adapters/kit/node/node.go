// Package node is what the JavaScript adapters (jest, vitest, mocha,
// node:test, bun, deno, and generic's package.json fallback) share: the package.json that holds a project, the workspace
// it belongs to, its package manager, and the framework's own binary in
// node_modules/.bin, with the install command to give when it is missing.
package node

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/shell"
)

// Package is the package.json nearest a project root, and the workspace
// around it.
type Package struct {
	Dir     string            // the directory holding package.json
	Name    string            // its "name"
	Scripts map[string]string // its "scripts"
	// Deps holds dependencies, devDependencies, peerDependencies and
	// optionalDependencies with their version ranges.
	Deps map[string]string
	// Type is "module" for an ES module package, else "" (CommonJS).
	Type string
	// Root is the workspace root: the nearest directory at or above Dir
	// with a lockfile or a "workspaces" field (pnpm-workspace.yaml for
	// pnpm); Dir when there is none.
	Root string
	// Manager is the package manager its lockfile names: npm, pnpm, yarn
	// or bun; npm when no lockfile says.
	Manager string
	// Lockfile is the lockfile's path, "" when there is none.
	Lockfile string
	// Raw keeps the fields an adapter reads itself ("jest", "mocha").
	Raw map[string]json.RawMessage
}

// lockfiles in the order a directory holding several is read.
var lockfiles = []struct{ name, manager string }{
	{"package-lock.json", "npm"},
	{"npm-shrinkwrap.json", "npm"},
	{"pnpm-lock.yaml", "pnpm"},
	{"yarn.lock", "yarn"},
	{"bun.lock", "bun"},
	{"bun.lockb", "bun"},
}

// maxUp bounds how far above the project root package.json and the
// workspace are looked for: a monorepo's packages sit a few levels down.
const maxUp = 6

// Find reads the package.json at root or, when root is a folder inside a
// package (src/, test/), the nearest one above it. ok is false when there
// is none; err when one exists and cannot be read.
func Find(root string) (p *Package, ok bool, err error) {
	dir := root
	for i := 0; i <= maxUp; i++ {
		p, err := read(dir)
		if err == nil {
			p.Root, p.Manager, p.Lockfile = workspace(dir)
			return p, true, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, false, err
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return nil, false, nil
}

type packageJSON struct {
	Name                 string            `json:"name"`
	Type                 string            `json:"type"`
	Scripts              map[string]string `json:"scripts"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
}

func read(dir string) (*Package, error) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, err
	}
	var pj packageJSON
	if err := json.Unmarshal(b, &pj); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(b, &raw) // the same bytes decoded above
	p := &Package{Dir: dir, Name: pj.Name, Type: pj.Type, Scripts: pj.Scripts, Deps: map[string]string{}, Raw: raw}
	for _, m := range []map[string]string{pj.OptionalDependencies, pj.PeerDependencies, pj.Dependencies, pj.DevDependencies} {
		for k, v := range m {
			p.Deps[k] = v
		}
	}
	return p, nil
}

// workspace finds the lockfile at or above dir: the directory holding it
// is where dependencies are installed from.
func workspace(dir string) (root, manager, lockfile string) {
	d := dir
	for i := 0; i <= maxUp; i++ {
		for _, l := range lockfiles {
			if path := filepath.Join(d, l.name); fileExists(path) {
				return d, l.manager, path
			}
		}
		if fileExists(filepath.Join(d, "pnpm-workspace.yaml")) {
			return d, "pnpm", ""
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
	return dir, "npm", ""
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}

// Within is root relative to the package's directory when root is a
// directory inside it ("test/unit"), "" when root is the package's own
// directory or outside it. strobe pointed at such a directory runs the
// tests under it (jest, vitest), or says why it cannot (mocha).
func (p *Package) Within(root string) string {
	if rel, ok := kit.Rel(p.Dir, root); ok && rel != "." {
		return rel
	}
	return ""
}

// Has reports whether the package depends on dep in any of its
// dependency lists.
func (p *Package) Has(dep string) bool {
	_, ok := p.Deps[dep]
	return ok
}

// TestScript is the package's "test" script, "" when it has none or has
// npm's placeholder that only fails.
func (p *Package) TestScript() string {
	s := strings.TrimSpace(p.Scripts["test"])
	if strings.Contains(s, "no test specified") {
		return ""
	}
	return s
}

// TestScriptWords is the test script split into words when it is one
// plain command (`vitest run --coverage`, `npx jest --ci`), nil when
// there is none or it needs a shell (`eslint . && jest`): the adapters run
// the framework it calls with its arguments, as `npm test` would.
func (p *Package) TestScriptWords() []string {
	s := p.TestScript()
	if s == "" || shell.NeedsShell(s) {
		return nil
	}
	w, err := shell.Split(s)
	if err != nil {
		return nil
	}
	return w
}

// Script is the test script's call of a framework, for a run of the
// framework without a command.
type Script struct {
	// Words is the command of the script that calls the framework, split
	// into words, without what sets its environment (below); nil when
	// there is none.
	Words []string
	// Env is the environment the command sets for the framework: its
	// assignments (`TZ=UTC jest`) and cross-env's (`cross-env
	// NODE_ENV=test jest`), as NAME=VALUE. Without them the tests run in
	// another time zone or mode than `npm test`'s, and an ES module
	// project's jest (`NODE_OPTIONS=--experimental-vm-modules jest`)
	// cannot import its own code.
	Env []string
	// Wrapper is the program and options the framework runs under to
	// load an env file (`dotenv -e .env.test --`, `env-cmd -f
	// .env.test`): the run is under it too (Wrap), and its reruns.
	Wrapper []string
	// Note says what else `npm test` runs that strobe, running the
	// framework alone, does not ("package.json's test script also runs
	// `eslint .`, which strobe did not run: run `npm test` for it"), ""
	// when the script is one call of the framework (or there is none).
	Note string
	// nodeOnly are node's options of the script that NODE_OPTIONS
	// refuses (KeepNodeOnly): they go on node's command line.
	nodeOnly []string
}

// TestScriptCall finds the test script's call of a framework (calls
// answers whether a command's words are one). A command `npm run NAME`
// (pnpm, yarn, bun alike) stands for the script NAME's commands; npm runs
// the pretest and posttest scripts around the test script, so they are
// among what else it runs.
func (p *Package) TestScriptCall(framework string, calls func([]string) bool) Script {
	script := p.TestScript()
	if script == "" {
		return Script{}
	}
	cmds, ok := p.scriptCommands(script, 0)
	var sc Script
	var others []string
	plain := ok
	cfg := p.npmConfig()
	if ok {
		for _, c := range cmds {
			c = expandConfig(c, cfg)
			env, rest := shell.Assignments(c)
			w, isPlain := plainWords(rest)
			if !isPlain && globbers[framework] {
				w, isPlain = globWords(rest)
			}
			var wrap []string
			if isPlain {
				env, w = crossEnv(env, w)
				wrap, w = envFileWrapper(w)
			}
			switch {
			case isPlain && sc.Words == nil && len(w) > 0 && calls(w):
				sc.Words, sc.Env, sc.Wrapper = w, append(configEnv(cfg), env...), wrap
			case isPlain || !mentions(c, framework):
				others = append(others, c)
			default:
				plain = false // the framework's call needs a shell: `X=$(cat f) jest`, `jest > out`
			}
		}
	}
	if p.Manager == "npm" || p.Manager == "" {
		for _, hook := range []string{"pretest", "posttest"} {
			if s := strings.TrimSpace(p.Scripts[hook]); s != "" {
				others = append(others, s)
			}
		}
	}
	run := p.RunScript("test")
	switch {
	case !plain || sc.Words == nil:
		sc.Note = fmt.Sprintf("package.json's test script (`%s`) is not a plain call of %s: strobe ran %s alone, and not the rest of the script: run `%s` for it",
			kit.ClipTo(script, maxQuoted, "…"), framework, framework, run)
		return sc
	case len(others) == 0:
		return sc
	}
	quoted := make([]string, len(others))
	for i, o := range others {
		quoted[i] = "`" + kit.ClipTo(o, maxQuoted, "…") + "`"
	}
	it := "it"
	if len(others) > 1 {
		it = "them"
	}
	sc.Note = fmt.Sprintf("package.json's test script also runs %s, which strobe did not run: run `%s` for %s", kit.JoinAnd(quoted), run, it)
	return sc
}

// crossEnv takes the assignments of a cross-env command (`cross-env
// NODE_ENV=test jest`; cross-env-shell's and env(1)'s alike) into env,
// leaving the command it runs.
func crossEnv(env, w []string) ([]string, []string) {
	if len(w) < 2 {
		return env, w
	}
	switch filepath.Base(w[0]) {
	case "cross-env", "cross-env-shell", "env":
	default:
		return env, w
	}
	i := 1
	for ; i < len(w); i++ {
		name, _, ok := strings.Cut(w[i], "=")
		if !ok || name == "" || strings.ContainsAny(name, "-./") {
			break
		}
		env = append(env, w[i])
	}
	return env, w[i:]
}

// ScriptFor is TestScriptCall for a request: nothing when it has a
// command (the command is the run), and the note only for a run of the
// whole suite, the run `npm test` stands for.
func (p *Package) ScriptFor(req adapters.Request, framework string, calls func([]string) bool) Script {
	if len(req.Command) > 0 {
		return Script{}
	}
	sc := p.TestScriptCall(framework, calls)
	if req.Test != "" || len(req.Tests) > 0 || req.Level != adapters.LevelAll {
		sc.Note = ""
	}
	return sc
}

// nodeValueFlags are node's options whose value may be the next word.
var nodeValueFlags = map[string]bool{"-r": true, "--require": true, "--import": true, "--loader": true,
	"--experimental-loader": true, "-C": true, "--conditions": true}

// ValueFlag says whether w is an option of node's whose value is the next
// word (`-r ts-node/register`).
func ValueFlag(w string) bool { return nodeValueFlags[w] }

// nodeFlags are node's own options in a command that runs a framework's
// program with node (`node --experimental-vm-modules
// node_modules/jest/bin/jest.js`), before the program; nil when it is not
// run so, or is node's own test runner (`node --test`: its options are
// its run's).
func nodeFlags(w []string) []string {
	if len(w) == 0 || filepath.Base(w[0]) != "node" {
		return nil
	}
	for i := 1; i < len(w); i++ {
		switch {
		case w[i] == "--test":
			return nil
		case nodeValueFlags[w[i]] && i+1 < len(w):
			i++
		case !strings.HasPrefix(w[i], "-"):
			return w[1:i]
		}
	}
	return nil
}

// RunEnv is the environment strobe adds to the client's (clientEnv) to
// run the framework as the script does: the script's Env, and node's own
// options of a `node FLAGS program` call added to NODE_OPTIONS (the
// script's, else the client's), which the framework's workers inherit.
func (s Script) RunEnv(clientEnv []string) []string {
	return s.env(lastValue(clientEnv, "NODE_OPTIONS"))
}

// RerunPrefix is the words a pasted rerun starts with to set what the
// script sets (before npx and the framework): the assignments as the
// shell reads them, or `env` and the assignments when a value needs
// quoting (a quoted assignment is a command to the shell).
func (s Script) RerunPrefix() []string {
	env := s.env("")
	for _, kv := range env {
		if shell.Quote(kv) != kv {
			return append(append([]string{"env"}, env...), s.wrapperPrefix()...)
		}
	}
	return append(env, s.wrapperPrefix()...)
}

func (s Script) env(nodeOptions string) []string {
	flags := s.optionsFlags()
	if len(flags) == 0 {
		return s.Env
	}
	var env []string
	for _, kv := range s.Env {
		if v, ok := strings.CutPrefix(kv, "NODE_OPTIONS="); ok {
			nodeOptions = v
			continue
		}
		env = append(env, kv)
	}
	return append(env, "NODE_OPTIONS="+strings.TrimSpace(nodeOptions+" "+strings.Join(flags, " ")))
}

// lastValue is the value of the last NAME= entry of env, "" when none.
func lastValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// WithoutCoverage drops the coverage options (jest's --coverage,
// --collectCoverage, --coverageThreshold …; vitest's --coverage and
// --coverage.*) from a test script's arguments, for a run or a rerun of
// part of the suite: the script's threshold is the whole suite's, and
// fails a run of one test whatever the test does.
func WithoutCoverage(args []string) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(args[i], "=")
		if !strings.HasPrefix(name, "--coverage") && !strings.HasPrefix(name, "--collectCoverage") {
			kept = append(kept, args[i])
			continue
		}
		switch name {
		case "--coverage", "--collectCoverage", "--coverage.enabled", "--coverage.all", "--coverage.clean":
			continue // a flag: the next word is not its value
		}
		if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++ // its value
		}
	}
	return kept
}

// WithoutShard drops --shard (jest's and vitest's, `--shard=2/3` or
// `--shard 2/3`) from a command's arguments, for a run or a rerun of
// tests it names: the shard is a part of the suite's files, and of a
// rerun's one file shard 2/2 takes none, so the test would not run.
func WithoutShard(args []string) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--shard":
			i++ // its value
		case !strings.HasPrefix(args[i], "--shard="):
			kept = append(kept, args[i])
		}
	}
	return kept
}

// RunScript is the command that runs one of the package's scripts with
// its package manager: `npm test`, `pnpm test`, `yarn test`, `bun run
// test`.
func (p *Package) RunScript(name string) string {
	switch p.Manager {
	case "pnpm":
		return "pnpm " + name
	case "yarn":
		return "yarn " + name
	case "bun":
		return "bun run " + name
	}
	if name == "test" {
		return "npm test"
	}
	return "npm run " + name
}

// maxQuoted bounds a script quoted in a hint.
const maxQuoted = 120

// maxScriptDepth bounds how many `npm run NAME` are followed into other
// scripts.
const maxScriptDepth = 3

// scriptCommands splits a script into its commands at the shell's control
// operators (&&, ||, ;, |, &), each trimmed, with `npm run NAME` replaced
// by the script NAME's commands. ok is false when the script cannot be
// read so (an open quote).
func (p *Package) scriptCommands(script string, depth int) ([]string, bool) {
	parts, ok := shell.Commands(script)
	if !ok {
		return nil, false
	}
	var cmds []string
	for _, c := range parts {
		if name, ok := p.runsScript(c); ok && depth < maxScriptDepth {
			sub, ok := p.scriptCommands(p.Scripts[name], depth+1)
			if !ok {
				return nil, false
			}
			cmds = append(cmds, sub...)
			continue
		}
		cmds = append(cmds, c)
	}
	return cmds, true
}

// runsScript says whether a command runs one of the package's scripts
// (`npm run lint`, `npm run-script lint`, `pnpm run lint`, `pnpm lint`,
// `yarn lint`, `bun run lint`), and which.
func (p *Package) runsScript(cmd string) (string, bool) {
	w, ok := plainWords(cmd)
	if !ok || len(w) != 2 && len(w) != 3 {
		return "", false
	}
	name := w[len(w)-1]
	if _, ok := p.Scripts[name]; !ok {
		return "", false
	}
	switch {
	case len(w) == 3 && (w[1] == "run" || w[1] == "run-script") && slices.Contains([]string{"npm", "pnpm", "yarn", "bun"}, w[0]):
		return name, true
	case len(w) == 2 && (w[0] == "pnpm" || w[0] == "yarn") && name != "test":
		return name, true
	}
	return "", false
}

// plainWords splits a command into words when it needs no shell.
func plainWords(cmd string) ([]string, bool) {
	if shell.NeedsShell(cmd) {
		return nil, false
	}
	w, err := shell.Split(cmd)
	return w, err == nil && len(w) > 0
}

// globbers are the frameworks that expand the globs of their file
// arguments themselves (mocha's spec: `mocha test/*-test.js`), as the
// shell would have expanded them.
var globbers = map[string]bool{"mocha": true}

// globWords is plainWords for a command whose only shell syntax is a
// glob's (`*`, `?`, `[…]`), its words left unexpanded: a globber finds
// the files itself. Without it, mocha ran its default spec, every file
// of test/ (mustache.js: its helpers, and a script that writes a test
// file, 251 tests where `npm test` ran 187). A `**` is left to the
// shell: sh reads it as `*`, one directory deep, where mocha's glob
// goes down every directory.
func globWords(cmd string) ([]string, bool) {
	if strings.Contains(cmd, "**") {
		return nil, false
	}
	bare := strings.Map(func(r rune) rune {
		if strings.ContainsRune("*?[]", r) {
			return 'g'
		}
		return r
	}, cmd)
	if shell.NeedsShell(bare) {
		return nil, false
	}
	w, err := shell.Split(cmd)
	return w, err == nil && len(w) > 0
}

// mentions says whether a command names the framework as a word
// (`TZ=UTC jest`, `c8 mocha`), or a program in its package
// (`node node_modules/jest/bin/jest.js`).
func mentions(cmd, framework string) bool {
	for _, w := range strings.Fields(cmd) {
		if w == framework || strings.HasSuffix(w, "/"+framework) || strings.Contains(w, "node_modules/"+framework+"/") {
			return true
		}
	}
	return false
}

// ScriptRuns reports whether a script of the package's runs tool (as a
// word: "vitest run", "npx jest --ci", "node --test").
func (p *Package) ScriptRuns(tool string) bool {
	for _, s := range p.Scripts {
		if mentions(s, tool) {
			return true
		}
	}
	return false
}

// InstallCommand is the command that installs the workspace's
// dependencies as its lockfile pins them.
func (p *Package) InstallCommand() string {
	switch p.Manager {
	case "pnpm":
		return "pnpm install --frozen-lockfile"
	case "yarn":
		return "yarn install --frozen-lockfile"
	case "bun":
		return "bun install --frozen-lockfile"
	}
	if p.Lockfile == "" {
		return "npm install"
	}
	return "npm ci"
}

// Bin finds the framework's executable in node_modules/.bin, from the
// package's directory up to the workspace root (hoisted installs keep it
// at the root). Missing, it is a usage error naming framework whose hint
// is the install command to run, and where: nothing is guessed, and no
// global install is used in the project's place.
func (p *Package) Bin(framework, name string) (string, error) {
	for d := p.Dir; ; d = filepath.Dir(d) {
		path := filepath.Join(d, "node_modules", ".bin", name)
		if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
			return path, nil
		}
		if d == p.Root || filepath.Dir(d) == d || !strings.HasPrefix(d, p.Root) {
			break
		}
	}
	hint := fmt.Sprintf("run `%s` in %s to install the project's dependencies", p.InstallCommand(), p.Root)
	if !p.Has(name) && !p.Has(framework) {
		hint = fmt.Sprintf("%s is not among the project's dependencies: add it (`npm install --save-dev %s`), or pick another framework", framework, framework)
	}
	return "", &adapters.UsageError{
		Msg:       fmt.Sprintf("%s is not installed in %s (no node_modules/.bin/%s)", framework, p.Root, name),
		Framework: framework,
		Hint:      hint,
	}
}

// ConfigFile is the first of names present in the package's directory,
// "" when none is.
func (p *Package) ConfigFile(names ...string) string {
	for _, n := range names {
		if path := filepath.Join(p.Dir, n); fileExists(path) {
			return path
		}
	}
	return ""
}

// BinVersion is the version of the package whose program a
// node_modules/.bin link runs: that of the package.json nearest above the
// file it links to (mocha/bin/mocha.js, vitest/vitest.mjs); "" when it
// cannot say (a shim that is not a link).
func BinVersion(bin string) string {
	target, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return ""
	}
	for d := filepath.Dir(target); filepath.Base(d) != "node_modules" && filepath.Dir(d) != d; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "package.json"))
		if err != nil {
			continue
		}
		var pj struct{ Version string }
		if json.Unmarshal(b, &pj) != nil {
			return ""
		}
		return pj.Version
	}
	return ""
}

// Major is a version's major number, 0 when it has none.
func Major(version string) int {
	var m int
	fmt.Sscanf(version, "%d", &m)
	return m
}

// CdTo is the relative path from root, where a rerun is pasted, to dir,
// where it runs (a package above the directory strobe was given: `../..`;
// one below it: `web`), "" when they are one directory.
func CdTo(root, dir string) string {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}

// InDir is cmd run from the directory cd names (CdTo), as a shell line.
func InDir(cd, cmd string) string {
	if cd == "" {
		return cmd
	}
	return "cd " + shell.Quote(cd) + " && " + cmd
}

// WithoutPaths drops from a script's arguments the paths it runs (`jest
// test/unit`, `vitest run test/basic`: a word that names a file or a
// directory of dir, not the value of an option before it), for a run
// scoped to another directory, which a framework would add to them. It
// also answers the paths dropped.
func WithoutPaths(args []string, dir string) (kept, dropped []string) {
	for i, a := range args {
		valueOf := i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && !pathFollows[args[i-1]]
		if !strings.HasPrefix(a, "-") && !valueOf && a != "run" && exists(filepath.Join(dir, a)) {
			dropped = append(dropped, a)
			continue
		}
		kept = append(kept, a)
	}
	return kept, dropped
}

// PathsNote says that a run scoped to dir left out the script's paths.
func PathsNote(paths []string, dir string) string {
	return fmt.Sprintf("the test script's own paths (%s) were left out: strobe ran the tests under %s, which it was given", strings.Join(paths, ", "), dir)
}

// pathFollows are options of jest's and vitest's that take no value, so
// that a path may follow them (`jest --ci test/unit`).
var pathFollows = map[string]bool{"--ci": true, "--coverage": true, "-i": true, "--runInBand": true, "--verbose": true,
	"--silent": true, "--run": true, "--passWithNoTests": true, "--detectOpenHandles": true, "--forceExit": true}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
