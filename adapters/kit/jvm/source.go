package jvm

import (
	"os"
	"path/filepath"
	"strconv"

	"strobe/adapters/kit"
)

// WorkDir is the directory a JVM runs in, relative to the project's root:
// the module whose tests it runs, by default (Surefire's fork and Gradle's
// test worker start in their module's directory). ok is false when it
// runs outside the project, or its directory cannot be read.
func WorkDir(root string, pid int) (dir string, ok bool) {
	cwd, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/cwd")
	if err != nil {
		return "", false
	}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real // /proc names the directory resolved
	}
	return kit.Rel(root, cwd)
}

// SourceFiles maps a frame's class and file (FooTest.java) to the
// project's source of it, relative to root as failures name it: the first
// of mods (modules' directories, relative to root) whose source sets hold
// it; the file as printed when none does (the JDK's, a library's).
func SourceFiles(root string, mods, sets []string) func(class, file string) string {
	return func(class, file string) string {
		for _, mod := range mods {
			if rel := kit.JVMSource(root, mod, sets, class, file); kit.FileExists(filepath.Join(root, rel)) {
				return rel
			}
		}
		return file
	}
}
