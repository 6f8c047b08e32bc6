package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"strobe/adapters/maven"
	"strobe/internal/testutil"
)

// BenchmarkMavenOverhead: a generated module of 500 JUnit Jupiter tests
// (50 classes of 10), `mvn -B test` against the Maven adapter's plan, side
// by side (issue 10: median ratio <= 1.05). The module's pom is the
// adapter's fixture's (the same pinned JUnit and Surefire).
func BenchmarkMavenOverhead(b *testing.B) {
	mvn := testutil.RequireTool(b, "mvn")
	pom, err := os.ReadFile(filepath.Join(testutil.Root(), "adapters", "maven", "testdata", "fixtures", "basic", "pom.xml"))
	if err != nil {
		b.Fatal(err)
	}
	files := map[string]string{"pom.xml": strings.Replace(string(pom), "<artifactId>basic<", "<artifactId>bench<", 1)}
	for c := range 50 {
		var src strings.Builder
		fmt.Fprintf(&src, "package bench;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass Gen%02dTest {\n", c)
		for t := range 10 {
			fmt.Fprintf(&src, "    @Test\n    void sums%02d() {\n        assertEquals(%d, java.util.stream.IntStream.range(0, %d).sum());\n    }\n\n", t, t*(t-1)/2, t)
		}
		src.WriteString("}\n")
		files[fmt.Sprintf("src/test/java/bench/Gen%02dTest.java", c)] = src.String()
	}
	dir := cacheDir(b, "maven", files)
	planOverhead(b, planCase{dir: dir, adapter: maven.New(), raw: []string{mvn, "-B", "test"}, tests: 500})
}
