package kit

import (
	"os"
	"path/filepath"
	"testing"
)

func TestJVMSource(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"app/src/test/kotlin/com/x/FooTest.kt", "app/src/it/java/com/x/BarIT.java", "src/test/java/com/x/KtInJava.kt"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755)
		os.WriteFile(filepath.Join(root, f), nil, 0o644)
	}
	sets := []string{"test", "it", "main"}
	for _, tc := range []struct{ mod, class, file, want string }{
		{"app", "com.x.FooTest", "FooTest.kt", "app/src/test/kotlin/com/x/FooTest.kt"},
		{"app", "com.x.BarIT", "BarIT.java", "app/src/it/java/com/x/BarIT.java"},
		{".", "com.x.KtInJava", "KtInJava.kt", "src/test/java/com/x/KtInJava.kt"},
		{".", "com.x.Gone", "Gone.java", "src/test/java/com/x/Gone.java"}, // none exists: the first candidate
		{".", "Top", "Top.groovy", "src/test/groovy/Top.groovy"},
	} {
		if got := JVMSource(root, tc.mod, sets, tc.class, tc.file); got != tc.want {
			t.Errorf("JVMSource(%s, %s) = %s, want %s", tc.mod, tc.class, got, tc.want)
		}
	}
	if got := SimpleClassName("com.x.FooTest"); got != "FooTest" {
		t.Errorf("SimpleClassName = %s", got)
	}
}
