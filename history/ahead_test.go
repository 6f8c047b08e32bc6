package history

import (
	"os"
	"testing"

	"strobe/report"
)

// startAhead records r with what ahead read.
func startAhead(t *testing.T, s *Store, r Run, ahead *Ahead) *Result {
	t.Helper()
	res, written, err := s.Start(r, ahead)
	if err != nil {
		t.Fatal(err)
	}
	if err := written(); err != nil {
		t.Fatal(err)
	}
	return res
}

// The history read ahead is the one Start uses while the file is unchanged:
// here the file is garbled in place after the read, keeping its size and
// time, and the run still compares with the run before (a read at Start
// would find the garbage and move the file aside).
func TestReadAheadUsed(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	record(t, s, run("r1", root, report.Failed, fail("a", "x"), pass("b")))
	ahead := s.ReadAhead(root)
	<-ahead.done
	path := Path(dir, root)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, fi.Size())
	for i := range garbage {
		garbage[i] = '#'
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(garbage, 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	res := startAhead(t, s, run("r2", root, report.Failed, fail("a", "x"), pass("b")), ahead)
	if res.MovedAside != "" || res.Changes == nil || res.Changes.Since != "r1" || res.Changes.StillFailing.Count != 1 {
		t.Fatalf("with the history read ahead: moved aside %q, changes %s", res.MovedAside, js(res.Changes))
	}
}

// A file that changed after the read is read again: a run recorded by
// another process meanwhile (renamed over it), a file that appeared, one
// written in place, and one that went away.
func TestReadAheadStale(t *testing.T) {
	t.Run("another run recorded", func(t *testing.T) {
		s := Open(t.TempDir())
		record(t, s, run("r1", root, report.Failed, fail("a", "x")))
		ahead := s.ReadAhead(root)
		record(t, s, run("r2", root, report.Passed, pass("a")))
		res := startAhead(t, s, run("r3", root, report.Failed, fail("a", "x")), ahead)
		if res.Changes == nil || res.Changes.Since != "r2" || res.Changes.NewFailures.Count != 1 {
			t.Errorf("compared with %s, want the run recorded after the read (r2, a new failure)", js(res.Changes))
		}
	})
	t.Run("none, then one", func(t *testing.T) {
		s := Open(t.TempDir())
		ahead := s.ReadAhead(root)
		record(t, s, run("r1", root, report.Failed, fail("a", "x")))
		res := startAhead(t, s, run("r2", root, report.Failed, fail("a", "x")), ahead)
		if res.Changes == nil || res.Changes.Since != "r1" {
			t.Errorf("compared with %s, want r1", js(res.Changes))
		}
	})
	t.Run("written in place", func(t *testing.T) {
		dir := t.TempDir()
		s := Open(dir)
		record(t, s, run("r1", root, report.Failed, fail("a", "x")))
		ahead := s.ReadAhead(root)
		<-ahead.done
		if err := os.WriteFile(Path(dir, root), []byte("garbage"), 0o600); err != nil {
			t.Fatal(err)
		}
		res := startAhead(t, s, run("r2", root, report.Failed, fail("a", "x")), ahead)
		if res.MovedAside != Path(dir, root)+".corrupt" || res.Changes != nil {
			t.Errorf("moved aside %q, changes %s: the file written after the read was not read", res.MovedAside, js(res.Changes))
		}
	})
	t.Run("removed", func(t *testing.T) {
		dir := t.TempDir()
		s := Open(dir)
		record(t, s, run("r1", root, report.Failed, fail("a", "x")))
		ahead := s.ReadAhead(root)
		<-ahead.done
		if err := os.Remove(Path(dir, root)); err != nil {
			t.Fatal(err)
		}
		res := startAhead(t, s, run("r2", root, report.Failed, fail("a", "x")), ahead)
		if res.Changes != nil {
			t.Errorf("compared with %s after the history was removed", js(res.Changes))
		}
	})
}

// An unusable file read ahead is moved aside as one read at Start is.
func TestReadAheadUnusable(t *testing.T) {
	dir := t.TempDir()
	s := Open(dir)
	path := Path(dir, root)
	if err := os.WriteFile(path, []byte(`{"format":"strobe-history"`), 0o600); err != nil {
		t.Fatal(err)
	}
	ahead := s.ReadAhead(root)
	res := startAhead(t, s, run("r1", root, report.Failed, fail("a", "x")), ahead)
	if res.MovedAside != path+".corrupt" {
		t.Errorf("moved aside to %q, want %q", res.MovedAside, path+".corrupt")
	}
	res = record(t, s, run("r2", root, report.Failed, fail("a", "x")))
	if res.Changes == nil || res.Changes.Since != "r1" {
		t.Errorf("after the fresh start: %s", js(res.Changes))
	}
}
