package kit

import (
	"os"
	"path/filepath"
	"strings"
)

// JVMSource maps a JVM class's source file, as a stack frame names it
// (FooTest.java, FooTest.kt), to the project's path of it: the first of
// mod/src/<set>/<language>/<package>/<file> that exists, sets tried in
// order, else the first candidate. Kotlin keeps its sources in
// src/<set>/kotlin, and often beside Java's in src/<set>/java. A
// multi-release jar's sources for a later Java are looked for last, in
// src/<set>/java11 and the like (jsoup's src/main/java11, src/test/java11).
func JVMSource(root, mod string, sets []string, class, file string) string {
	pkg := ""
	if i := strings.LastIndex(class, "."); i >= 0 {
		pkg = strings.ReplaceAll(class[:i], ".", "/") + "/"
	}
	langs := []string{strings.TrimPrefix(filepath.Ext(file), ".")}
	if langs[0] == "kt" {
		langs = []string{"kotlin", "java"}
	}
	var first string
	for _, set := range sets {
		for _, lang := range langs {
			rel := filepath.ToSlash(filepath.Join(mod, "src", set, lang, pkg+file))
			if first == "" {
				first = rel
			}
			if FileExists(filepath.Join(root, rel)) {
				return rel
			}
		}
	}
	for _, set := range sets {
		dirs, _ := os.ReadDir(filepath.Join(root, mod, "src", set))
		for _, lang := range langs {
			for _, d := range dirs {
				if v, ok := strings.CutPrefix(d.Name(), lang); !ok || v == "" || strings.Trim(v, "0123456789") != "" {
					continue
				}
				rel := filepath.ToSlash(filepath.Join(mod, "src", set, d.Name(), pkg+file))
				if FileExists(filepath.Join(root, rel)) {
					return rel
				}
			}
		}
	}
	return first
}

// SimpleClassName drops a JVM class's package.
func SimpleClassName(class string) string {
	if i := strings.LastIndex(class, "."); i >= 0 {
		return class[i+1:]
	}
	return class
}
