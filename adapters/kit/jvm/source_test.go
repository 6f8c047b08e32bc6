package jvm

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSourceFiles: a frame's class is found in the first module whose
// sources hold it, named relative to the root; a class no module holds
// (the JDK's) keeps the file as printed.
func TestSourceFiles(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"app/src/test/java/com/x/WaitTest.java", "core/src/main/java/com/x/Gate.java"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	file := SourceFiles(root, []string{"app", ".", "core"}, []string{"test", "main"})
	for _, tc := range []struct{ class, file, want string }{
		{"com.x.WaitTest", "WaitTest.java", "app/src/test/java/com/x/WaitTest.java"},
		{"com.x.Gate", "Gate.java", "core/src/main/java/com/x/Gate.java"},
		{"java.util.concurrent.CountDownLatch", "CountDownLatch.java", "CountDownLatch.java"},
	} {
		if got := file(tc.class, tc.file); got != tc.want {
			t.Errorf("%s (%s): %s, want %s", tc.class, tc.file, got, tc.want)
		}
	}
}
