package kit

import (
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTailFile reads a file written while it reads: one that does not
// exist yet, grows, and is drained after Stop.
func TestTailFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.xml")
	tf := NewTailFile(path)
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(tf)
		got <- string(b)
	}()
	time.Sleep(20 * time.Millisecond) // the reader waits for the file
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("<a>")
	tf.Kick()
	deadline := time.Now().Add(5 * time.Second)
	for !tf.CaughtUp(3) {
		if time.Now().After(deadline) {
			t.Fatal("the reader never caught up with 3 bytes")
		}
		time.Sleep(time.Millisecond)
	}
	f.WriteString("</a>")
	f.Close()
	tf.Stop()
	select {
	case s := <-got:
		if s != "<a></a>" {
			t.Errorf("read %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read did not end after Stop")
	}
	tf.CloseFile()
	tf.CloseFile() // once is enough; twice is harmless
}

// TestTailFileNeverWritten: Stop ends a reader whose file never came.
func TestTailFileNeverWritten(t *testing.T) {
	tf := NewTailFile(filepath.Join(t.TempDir(), "never"))
	done := make(chan error)
	go func() {
		_, err := tf.Read(make([]byte, 8))
		done <- err
	}()
	tf.Stop()
	select {
	case err := <-done:
		if err != io.EOF {
			t.Errorf("Read = %v, want EOF", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read did not end after Stop")
	}
}
