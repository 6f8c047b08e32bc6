package maven

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"strobe/adapters"
	"strobe/adapters/kit"
	"strobe/internal/lazyre"
)

// SelectsTests: surefire's -Dtest (failsafe's -Dit.test) takes several
// patterns separated by commas, and methods of one class joined by '+':
// -Dtest=com.x.ATest#m1+m2,com.x.BTest.
func (mavenAdapter) SelectsTests() {}

// List reads the test classes from the modules' src/test/java rather than
// from Maven: Surefire has no mode that lists tests without running them.
// A class is listed, not its methods, so a partition splits a suite by
// class: TestRef{Suite: com.x.FooTest, Name: com.x.FooTest}, which
// multi-selection runs whole. The classes are Surefire's default includes
// (Test*, *Test, *Tests, *TestCase) for the unit level and the whole
// suite, and Failsafe's (IT*, *IT, *ITCase) for integration; abstract
// classes are left out, as Surefire leaves them. A pom with its own
// <includes> or another test source directory is not read.
func (mavenAdapter) List(ctx context.Context, req adapters.Request) ([]adapters.TestRef, error) {
	if len(req.Command) > 0 {
		return nil, adapters.Usagef("strobe lists Maven tests for its own mvn command only: drop the command and choose tests with the level")
	}
	if req.Level == adapters.LevelE2E {
		return nil, &adapters.UsageError{Msg: "Maven has no e2e level", Framework: "maven",
			Hint: "use level unit (Surefire's tests) or integration (Failsafe's *IT tests), or name the test"}
	}
	include := surefireClass
	if req.Level == adapters.LevelIntegration {
		include = failsafeClass
	}
	var refs []adapters.TestRef
	listed := map[string]bool{}
	for _, mod := range modules(req.ProjectRoot) {
		src := filepath.Join(req.ProjectRoot, mod, "src", "test", "java")
		filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".java") || ctx.Err() != nil {
				return nil
			}
			name := strings.TrimSuffix(d.Name(), ".java")
			if !include.MatchString(name) || isAbstract(path, name) {
				return nil
			}
			rel, _ := filepath.Rel(src, path)
			class := strings.ReplaceAll(strings.TrimSuffix(rel, ".java"), string(filepath.Separator), ".")
			// A class of the same name in two modules is listed once:
			// -Dtest selects it in every module.
			if (req.Test == "" || matchesTest(req.Test, class)) && !listed[class] {
				listed[class] = true
				refs = append(refs, adapters.TestRef{Suite: class, Name: class})
			}
			return nil
		})
	}
	return refs, ctx.Err()
}

var (
	surefireClass = lazyre.New(`^(Test\w*|\w*Test|\w*Tests|\w*TestCase)$`)
	failsafeClass = lazyre.New(`^(IT\w*|\w*IT|\w*ITCase)$`)
	abstractClass = `abstract\s+(public\s+|protected\s+)?class\s+`
)

// isAbstract says whether the file declares its class abstract.
func isAbstract(path, name string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	return regexp.MustCompile(abstractClass + regexp.QuoteMeta(name) + `\b`).Match(b)
}

// matchesTest says whether a -Dtest pattern's class part names class: by
// its simple or fully-qualified name (no wildcards).
func matchesTest(test, class string) bool {
	c, _, _ := strings.Cut(test, "#")
	return c == class || strings.HasSuffix(class, "."+c)
}

// multiSelection is the -Dtest (or, for integration, -Dit.test) value of
// several tests: each class once, fully qualified, with its methods
// joined by '+', or alone when a test names the whole class. root is the
// project's, whose sources say which classes are JUnit 5's.
func multiSelection(root string, tests []adapters.TestRef) string {
	var classes []string
	methods := map[string][]string{} // nil: the whole class
	whole := map[string]bool{}
	for _, t := range tests {
		simple, method, hasMethod := strings.Cut(t.Name, "#")
		class, _, _ := strings.Cut(t.Suite, " ") // "Class (module)": suiteOf
		if class == "" {
			class = simple
		}
		if !slices.Contains(classes, class) {
			classes = append(classes, class)
		}
		if !hasMethod || classFailure(method) {
			whole[class] = true
			continue
		}
		method, wholeClass := invokedMethod(method, func() bool { return jupiterClass(root, class) })
		if wholeClass {
			whole[class] = true
			continue
		}
		if !slices.Contains(methods[class], method) {
			methods[class] = append(methods[class], method)
		}
	}
	parts := make([]string, 0, len(classes))
	for _, c := range classes {
		if whole[c] || len(methods[c]) == 0 {
			parts = append(parts, c)
			continue
		}
		parts = append(parts, c+"#"+strings.Join(methods[c], "+"))
	}
	return strings.Join(parts, ",")
}

// invokedMethod is what -Dtest selects for a test's name: the method of
// a JUnit 5 invocation, with all its invocations: "adds(int)[1]" as
// Surefire 3 names it, "adds{int}[1]" as Surefire 2.22 does, and, where
// jupiter says the class is JUnit 5's, Surefire 2.22's "adds[1]" of a
// method without parameters (a dynamic or repeated test). A JUnit 4
// Parameterized row ("adds[1: n=2]", "adds[1]") selects the whole class
// (whole): Surefire 3 selects no test by "adds" there (the row's name is
// the method's), and Surefire 2's JUnit 4 filter fails the run with "No
// tests found matching Method adds"; "adds*" works in Surefire 3 alone.
func invokedMethod(method string, jupiter func() bool) (sel string, whole bool) {
	i := strings.IndexAny(method, "([{")
	switch {
	case i < 0:
		return method, false
	case i == 0:
		return "", true
	case method[i] == '[' && !jupiter():
		return "", true
	}
	return method[:i], false
}

// jupiterClass says whether a test class's source (in any module of the
// project at root) is JUnit 5's: it imports org.junit.jupiter.
func jupiterClass(root, class string) bool {
	outer, _, _ := strings.Cut(class, "$")
	file := simpleName(outer) + ".java"
	for _, mod := range modules(root) {
		b, err := os.ReadFile(filepath.Join(root, kit.JVMSource(root, mod, []string{"test", "it"}, outer, file)))
		if err == nil {
			return bytes.Contains(b, []byte("org.junit.jupiter"))
		}
	}
	return false
}
