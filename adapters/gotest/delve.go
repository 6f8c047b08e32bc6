package gotest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/shell"
)

// A traced go run (Request.Trace) builds each package's test binary
// without optimisations or inlining (-gcflags='all=-N -l': Delve reads
// arguments and results only then), runs it under a headless dlv, and
// drives dlv from the plan's Companion over its JSON-RPC API (see
// delveSession). The test binary's -test.v=test2json output goes through
// `go tool test2json`, so the parser reads the same events as from
// go test -json; build errors are go test -c's, read as build_failed.
//
// Packages run one after the other, as many as have tests (at most
// delveMaxPackages), in their own directories as go test runs them. A
// single test runs only in the packages whose test files define it.
//
// dlv listens on a unix socket in the run's temporary directory: its path
// is known before dlv starts, so the companion needs nothing from dlv's
// output (which goes to the parser), and no TCP port is opened to other
// users of the machine.

// delveVersion is the Delve strobe is tested with.
const delveVersion = "1.27.2"

// delveInstall is what to run when dlv is missing.
const delveInstall = "go install github.com/go-delve/delve/cmd/dlv@v" + delveVersion

// delveMaxPackages bounds a traced level or suite: each package costs a
// build without optimisations and a debugger start.
const delveMaxPackages = 20

// Tracer says go tests run traced under Delve.
func (gotest) Tracer() string { return "delve" }

// findDelve looks dlv up on the client's PATH, then in GOBIN and
// GOPATH/bin, where go install puts it.
func findDelve(env []string) (string, error) {
	if p, err := shell.LookPath("dlv", env); err == nil {
		return p, nil
	}
	var dirs []string
	if gobin := envOr(env, "GOBIN"); gobin != "" {
		dirs = append(dirs, gobin)
	}
	gopath := envOr(env, "GOPATH")
	if gopath == "" {
		if home := envOr(env, "HOME"); home != "" {
			gopath = filepath.Join(home, "go")
		}
	}
	for _, d := range filepath.SplitList(gopath) {
		dirs = append(dirs, filepath.Join(d, "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "dlv")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", &adapters.UsageError{
		Msg:       "tracing Go tests needs Delve (dlv), which is not on PATH nor in GOBIN or GOPATH/bin",
		Framework: "go",
		Hint:      "install it with `" + delveInstall + "`",
	}
}

// envOr reads key from env, or from this process's environment when env
// is nil.
func envOr(env []string, key string) string {
	if env == nil {
		return os.Getenv(key)
	}
	return kit.EnvValue(env, key)
}

// delvePackage is a package whose tests a traced run runs.
type delvePackage struct {
	path, dir string
}

func (g gotest) planTraced(ctx context.Context, req adapters.Request, rec *adapters.Recorder) (*adapters.Plan, error) {
	if len(req.Command) > 0 {
		return nil, adapters.Usagef("a traced go run builds and runs the tests itself: leave the command out and name the test (or the level) to trace")
	}
	dlv, err := findDelve(req.Env)
	if err != nil {
		return nil, err
	}
	levelFlags, levelRun := goLevel(req.Level)
	run := levelRun
	if req.Test != "" {
		run = goRunPattern(req.Test)
	}
	pkgs, err := delvePackages(ctx, req, levelFlags)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "strobe-delve-")
	if err != nil {
		return nil, fmt.Errorf("a directory for the traced test binaries: %w", err)
	}
	var testFlags []string
	if slicesContains(levelFlags, "-short") {
		testFlags = append(testFlags, "-test.short")
	}
	if run != "" {
		testFlags = append(testFlags, "-test.run="+run)
	}
	var buildFlags []string
	if len(levelFlags) == 2 && levelFlags[0] == "-tags" {
		buildFlags = levelFlags
	}
	p := newGoParser(rec, req.ProjectRoot, readGoModules(req.ProjectRoot), append([]string{"go", "test"}, levelFlags...), goNoTestsHint(req, run))
	s := &delveRun{spec: req.Trace, dir: dir, pkgs: pkgs, root: req.ProjectRoot}
	return &adapters.Plan{
		Argv:      []string{"sh", "-c", delveScript(dlv, dir, pkgs, buildFlags, testFlags)},
		Shown:     delveShown(req.ProjectRoot, pkgs, buildFlags, testFlags),
		Dir:       req.ProjectRoot,
		Parser:    &delveParser{goParser: p, dir: dir},
		Companion: s.run,
	}, nil
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// delvePackages lists the packages with tests (go list), keeping those
// that define the requested test when one is named.
func delvePackages(ctx context.Context, req adapters.Request, levelFlags []string) ([]delvePackage, error) {
	argv := []string{"go", "list"}
	if len(levelFlags) == 2 && levelFlags[0] == "-tags" {
		argv = append(argv, levelFlags...)
	}
	argv = append(argv, "-e", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}\t{{.Dir}}{{end}}")
	argv = append(argv, goPatterns(req.ProjectRoot)...)
	out, stderr, err := kit.RunTool(ctx, kit.Tool{Dir: req.ProjectRoot, Env: req.Env, Timeout: 2 * time.Minute}, argv...)
	if err != nil {
		return nil, fmt.Errorf("listing the packages to trace (%s): %w: %s", shell.Join(argv), err, kit.Clip(string(stderr)))
	}
	var all []delvePackage
	for _, line := range strings.Split(string(out), "\n") {
		if path, dir, ok := strings.Cut(strings.TrimSpace(line), "\t"); ok {
			all = append(all, delvePackage{path, dir})
		}
	}
	pkgs := all
	if req.Test != "" {
		top, _, _ := strings.Cut(req.Test, "/")
		pkgs = nil
		for _, p := range all {
			if definesTest(p.dir, top) {
				pkgs = append(pkgs, p)
			}
		}
		if len(pkgs) == 0 {
			pkgs = all // let go test say the test matched nothing
		}
	}
	if len(pkgs) > delveMaxPackages {
		return nil, adapters.Usagef("a traced run starts Delve once per package and %d packages have tests, more than %d: name the test to trace (it runs only in the packages that define it)", len(pkgs), delveMaxPackages)
	}
	return pkgs, nil
}

// definesTest reports whether a _test.go file in dir declares func name(.
func definesTest(dir, name string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	want := []byte("func " + name + "(")
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, want) {
			return true
		}
	}
	return false
}

// delveScript is the shell program a traced run is: for each package,
// build its test binary N.test, then run it under dlv listening on N.sock,
// through test2json; dlv exits 0 whatever the tests did, so the companion
// writes the binary's exit status to N.exit for the package's pass or
// fail. N.done tells the companion a package is over (it never built,
// dlv never started); "refused" stops the run before the next package.
func delveScript(dlv, dir string, pkgs []delvePackage, buildFlags, testFlags []string) string {
	q := shell.Quote
	var b strings.Builder
	fmt.Fprintf(&b, "d=%s\nrc=0\n", q(dir))
	inner := `b=$1; shift; "$0" exec --headless --api-version=2 --accept-multiclient=false --listen="unix:$b.sock" --log-dest=/dev/null "$b.test" -- "$@"; s=$(cat "$b.exit" 2>/dev/null) || s=1; exit "${s:-1}"`
	tf := []string{"-test.v=test2json", "-test.paniconexit0", "-test.timeout=10m0s"}
	tf = append(tf, testFlags...)
	for i, p := range pkgs {
		n := strconv.Itoa(i + 1)
		build := append([]string{"go", "test", "-c", "-gcflags=all=-N -l"}, buildFlags...)
		build = append(build, "-o", "$d/"+n+".test", p.path)
		words := make([]string, len(build))
		for j, w := range build {
			words[j] = q(w)
		}
		words[len(words)-2] = `"$d/` + n + `.test"`
		run := []string{"go", "tool", "test2json", "-p", p.path, "sh", "-c", inner, dlv}
		runWords := make([]string, 0, len(run)+len(tf)+1)
		for _, w := range run {
			runWords = append(runWords, q(w))
		}
		runWords = append(runWords, `"$d/`+n+`"`)
		for _, w := range tf {
			runWords = append(runWords, q(w))
		}
		fmt.Fprintf(&b, "if %s; then\n  (cd %s && exec %s) || rc=1\nelse\n  rc=1\nfi\n", strings.Join(words, " "), q(p.dir), strings.Join(runWords, " "))
		fmt.Fprintf(&b, ": > \"$d/%s.done\"\n[ -e \"$d/refused\" ] && exit 3\n", n)
	}
	b.WriteString("exit $rc\n")
	return b.String()
}

// delveShown is the command a traced run answers with: what a person
// types in root to run the same tests under Delve, `dlv test ./PKG --
// FLAGS`, one per package in the order they run. dlv test builds as the
// script does, without optimisations or inlining.
func delveShown(root string, pkgs []delvePackage, buildFlags, testFlags []string) string {
	cmds := make([]string, len(pkgs))
	for i, p := range pkgs {
		pkg := p.path
		if rel, err := filepath.Rel(root, p.dir); err == nil && rel == "." {
			pkg = "."
		} else if err == nil && filepath.IsLocal(rel) {
			pkg = "./" + filepath.ToSlash(rel)
		}
		argv := []string{"dlv", "test", pkg}
		if len(buildFlags) > 0 {
			argv = append(argv, "--build-flags="+strings.Join(buildFlags, " "))
		}
		if len(testFlags) > 0 {
			argv = append(append(argv, "--"), testFlags...)
		}
		cmds[i] = shell.Join(argv)
	}
	return strings.Join(cmds, "; ")
}

// delveParser is the go parser of a traced run, which also removes the
// run's test binaries once the runner is done with it.
type delveParser struct {
	*goParser
	dir string
}

func (p *delveParser) Close() error { return os.RemoveAll(p.dir) }
