package kit

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxLinkedTargets bounds the targets staleDeps follows from a binary's.
const maxLinkedTargets = 50

// staleDeps finds, from the depfiles CMake's Makefile generator keeps
// (3.20+: the compiler's <obj>.o.d beside each object, listed with its
// source and object in the target's DependInfo.cmake), the project file
// an object of the binary's target was compiled from, or of a target it
// links (DependInfo.cmake's CMAKE_TARGET_LINKED_INFO_FILES, followed),
// that changed after that object was written: a header edited since, or
// a source (a library's) since; the newest such, and its target. read
// says the binary's own target's depfiles were read, so that the headers
// it does not include are no news of it. Ninja keeps its depfiles in
// .ninja_deps, which is not read: nothing is then, and the headers are
// judged as before (any newer than the binary). Under Ninja, which
// keeps no depfile (it moves them into .ninja_deps) and writes no
// DependInfo.cmake, the objects come from build.ninja's link of the
// binary and of the libraries it links, their dependencies from
// .ninja_deps (staleNinja).
func staleDeps(root, build, targetDir, bin string) (file, target string, read bool) {
	if build == "" || targetDir == "" {
		return "", "", false
	}
	if own, linked, ok := ninjaObjects(build, bin); ok {
		return staleNinja(root, build, own, linked)
	}
	var newest time.Time
	seen := map[string]bool{}
	queue := []string{filepath.Join(targetDir, "DependInfo.cmake")}
	for i := 0; i < len(queue) && i < maxLinkedTargets; i++ {
		info := queue[i]
		if seen[info] {
			continue
		}
		seen[info] = true
		b, err := os.ReadFile(info)
		if err != nil {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(filepath.Dir(info)), ".dir")
		// Paths in it are relative to the target's binary directory,
		// which holds its CMakeFiles/.
		base := filepath.Dir(filepath.Dir(filepath.Dir(info)))
		files := cmakeList(string(b), "CMAKE_DEPENDS_DEPENDENCY_FILES")
		for j := 0; j+3 < len(files); j += 4 {
			object, depfile := absUnder(base, files[j+1]), absUnder(base, files[j+3])
			oi, err := os.Stat(object)
			if err != nil {
				continue
			}
			deps, ok := readDepfile(depfile)
			if !ok {
				continue
			}
			read = read || i == 0
			for _, d := range deps {
				d = absUnder(base, d)
				if !Within(root, d) || Within(build, d) {
					continue
				}
				if di, err := os.Stat(d); err == nil && di.ModTime().After(oi.ModTime()) && di.ModTime().After(newest) {
					newest, file, target = di.ModTime(), ProjectPath(root, d), name
				}
			}
		}
		queue = append(queue, cmakeList(string(b), "CMAKE_TARGET_LINKED_INFO_FILES")...)
	}
	return file, target, read
}

// absUnder is p, absolute, taking a relative one from base.
func absUnder(base, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(base, p)
}

// cmakeList is the quoted values of `set(NAME …)` in a file CMake wrote.
func cmakeList(text, name string) []string {
	_, rest, ok := strings.Cut(text, "set("+name+"\n")
	if !ok {
		return nil
	}
	body, _, _ := strings.Cut(rest, ")")
	var out []string
	for {
		_, after, ok := strings.Cut(body, `"`)
		if !ok {
			return out
		}
		v, next, ok := strings.Cut(after, `"`)
		if !ok {
			return out
		}
		out, body = append(out, v), next
	}
}

// readDepfile reads a compiler's Make-style depfile (-MD -MF): the
// prerequisites of its rules, a line's trailing backslash continuing it
// and "\ " a space in a path. ok is false when it cannot be read.
func readDepfile(path string) (deps []string, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	text := strings.ReplaceAll(strings.ReplaceAll(string(b), "\\\r\n", " "), "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		_, prereqs, found := strings.Cut(line, ": ")
		if !found {
			continue
		}
		var cur strings.Builder
		for i := 0; i < len(prereqs); i++ {
			c := prereqs[i]
			switch {
			case c == '\\' && i+1 < len(prereqs) && prereqs[i+1] == ' ':
				cur.WriteByte(' ')
				i++
			case c == ' ' || c == '\t' || c == '\r':
				if cur.Len() > 0 {
					deps = append(deps, cur.String())
					cur.Reset()
				}
			default:
				cur.WriteByte(c)
			}
		}
		if cur.Len() > 0 {
			deps = append(deps, cur.String())
		}
	}
	return deps, true
}

// staleNinja is staleDeps under Ninja: the objects' dependencies are
// .ninja_deps' records; read says some of own's were there.
func staleNinja(root, build string, own, linked []string) (file, target string, read bool) {
	wanted := map[string]bool{}
	for _, o := range append(slicesClone(own), linked...) {
		wanted[o] = true
	}
	deps, ok := ninjaDeps(build, wanted)
	if !ok {
		return "", "", false
	}
	var newest time.Time
	for i, o := range append(slicesClone(own), linked...) {
		list, found := deps[o]
		if !found {
			continue
		}
		read = read || i < len(own)
		oi, err := os.Stat(absUnder(build, o))
		if err != nil {
			continue
		}
		for _, d := range list {
			d = absUnder(build, d)
			if !Within(root, d) || Within(build, d) {
				continue
			}
			if di, err := os.Stat(d); err == nil && di.ModTime().After(oi.ModTime()) && di.ModTime().After(newest) {
				newest, file, target = di.ModTime(), ProjectPath(root, d), objectTarget(o)
			}
		}
	}
	return file, target, read
}

// objectTarget is the target an object CMake wrote belongs to: the
// <target> of its CMakeFiles/<target>.dir/.
func objectTarget(obj string) string {
	_, rest, ok := strings.Cut(filepath.ToSlash(obj), "CMakeFiles/")
	if !ok {
		return filepath.Base(obj)
	}
	name, _, _ := strings.Cut(rest, ".dir/")
	return name
}
