package history

import (
	"bytes"
	"errors"
	"os"
)

// Ahead is a project's history file read while the run's command runs, so
// that recording the run once it ends (Start) need not read and decode the
// file then: a 64,000-test history takes tens of milliseconds of it, which
// the answer waited for. The file is read without the lock: every write
// renames a whole new file over the old one, so a reader sees one or the
// other.
type Ahead struct {
	root string
	done chan struct{}
	// held is the file read, kept open until Start or Close: its inode
	// cannot be reused meanwhile. stat is its as it was read (nil when
	// there was no file): a file renamed over it is another inode, a write
	// in place (not strobe's) changes its size or time.
	held   *os.File
	stat   os.FileInfo
	f      *file
	suffix string
	err    error
}

// ReadAhead starts reading root's history; Start(run, ahead) takes what it
// read when the file has not changed since. Close lets go of it unused.
func (s *Store) ReadAhead(root string) *Ahead {
	a := &Ahead{root: root, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		path := Path(s.Dir, root)
		fd, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			a.f = &file{Format: format, Version: version, Project: root}
			return
		}
		if err != nil {
			a.err = err
			return
		}
		a.held = fd
		st, err := fd.Stat()
		if err != nil {
			a.err = err
			return
		}
		a.stat = st
		var b bytes.Buffer
		b.Grow(int(st.Size()) + bytes.MinRead) // one read to the end, as os.ReadFile
		if _, err := b.ReadFrom(fd); err != nil {
			a.err = err
			return
		}
		a.f, a.suffix, a.err = parse(b.Bytes(), path, root)
	}()
	return a
}

// load is load(path, root), but from what a read when that is still the
// file at path (or there was none and still is none). It lets go of the
// file read: a history is taken once, and Start changes it.
func (a *Ahead) load(path, root string) (*file, string, error) {
	if a == nil {
		return load(path, root)
	}
	<-a.done
	defer a.Close()
	if !a.current(path, root) {
		return load(path, root)
	}
	f := a.f
	a.f = nil
	return f, a.suffix, a.err
}

// current says whether a read root's file at path as it is now: the read
// gave a history or an unusable file (a failed read is read again), and
// path is that file, unchanged.
func (a *Ahead) current(path, root string) bool {
	if a.root != root || (a.f == nil && !errors.Is(a.err, errUnusable)) {
		return false
	}
	now, err := os.Stat(path)
	if a.stat == nil { // there was none
		return errors.Is(err, os.ErrNotExist)
	}
	return err == nil && os.SameFile(a.stat, now) && a.stat.Size() == now.Size() && a.stat.ModTime().Equal(now.ModTime())
}

// Close lets go of the file read, once the read is over; Start closes it.
func (a *Ahead) Close() {
	if a == nil {
		return
	}
	<-a.done
	if a.held != nil {
		a.held.Close()
		a.held = nil
	}
}
