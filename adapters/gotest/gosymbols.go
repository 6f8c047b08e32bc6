package gotest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
)

// goDebugLdflags keep the symbols and DWARF a copy of a test binary needs
// for gdb. The DWARF is left uncompressed: zlib was nearly half of what the
// DWARF adds to a link, and gdb reads it as well.
const goDebugLdflags = "-s=false -w=false -compressdwarf=false"

// goBuildFlags are the go test flags that change what is built; a copy of
// a test binary is built with them, so that the compile is go's cached one
// and the code is the same as the run's.
var goBuildFlags = map[string]bool{
	"asan": true, "asmflags": true, "buildmode": true, "buildvcs": true, "compiler": true,
	"cover": true, "covermode": true, "coverpkg": true, "gccgoflags": true, "gcflags": true,
	"installsuffix": true, "linkshared": true, "mod": true, "modcacherw": true, "modfile": true,
	"msan": true, "overlay": true, "pgo": true, "pkgdir": true, "race": true, "tags": true,
	"toolexec": true, "trimpath": true,
}

// LinkSymbols for go test: `go test -c` of the package p runs in (go test
// runs each test binary in its package's directory) with the run's build
// flags and the user's -ldflags plus goDebugLdflags. go test strips the
// binaries it runs (-s -w); only the link differs, and the linker lays out
// the same code at the same addresses, so gdb can read the live process
// with the copy's symbols.
func (gotest) LinkSymbols(ctx context.Context, p adapters.Proc, plan *adapters.Plan, env []string, out string) error {
	pkg, err := os.Readlink("/proc/" + strconv.Itoa(p.PID) + "/cwd")
	if err != nil {
		return fmt.Errorf("the test binary's package directory: %w", err)
	}
	argv := goLinkCommand(plan.Argv, pkg, out)
	// Its own group, so that a cancelled link takes go's linker with it.
	stdout, stderr, err := kit.RunTool(ctx, kit.Tool{Dir: plan.Dir, Env: env, MaxOutput: 64 << 10}, argv...)
	if err != nil {
		msg := strings.TrimSpace(string(stdout) + string(stderr))
		return fmt.Errorf("%s: %w: %s", strings.Join(argv, " "), err, msg)
	}
	return nil
}

// goLinkCommand is the go test -c command that builds the package in dir
// into out as the run's command argv built it, with symbols.
func goLinkCommand(argv []string, dir, out string) []string {
	cmd := []string{argv[0], "test"}
	var flags []string
	ldflags := goDebugLdflags
	cover := false
	args := argv[2:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-args" || a == "--args" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			continue // a package
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takesValue := goValueFlags[name] || name == "buildmode" || name == "compiler"
		if !hasValue && takesValue && i+1 < len(args) {
			i++
			value = args[i]
		}
		switch {
		case name == "C":
			cmd = append(cmd, "-C", value) // go wants it first
		case name == "ldflags":
			ldflags = value + " " + goDebugLdflags // the last -ldflags wins
		case name == "coverprofile":
			cover = true // go test -coverprofile builds with -cover
		case goBuildFlags[name]:
			if takesValue || hasValue {
				flags = append(flags, "-"+name+"="+value)
			} else {
				flags = append(flags, "-"+name)
			}
		}
	}
	if cover {
		flags = append(flags, "-cover")
	}
	cmd = append(cmd, "-c", "-o", out)
	cmd = append(cmd, flags...)
	return append(cmd, "-ldflags="+ldflags, dir)
}
