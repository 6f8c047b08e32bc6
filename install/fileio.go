package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// backupSuffix names the copy of a file's previous bytes, kept beside it.
const backupSuffix = ".strobe-backup"

// file is one file strobe may change, as found on disk.
type file struct {
	path   string // as the agent names it (~/.claude.json)
	real   string // where the bytes live: path with symlinks resolved
	exists bool
	mode   fs.FileMode
	data   []byte
}

// ReadOnlyError reports a file strobe will not change because its owner
// made it read-only.
type ReadOnlyError struct{ Path string }

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only: left untouched (make it writable with chmod u+w, or add strobe's entry by hand)", e.Path)
}

// load reads path, following symlinks to the file they name, so a config
// kept in a dotfiles repository is edited there and the link stays a link.
func load(path string) (*file, error) {
	f := &file{path: path, real: path}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, fmt.Errorf("%s is a symlink that does not resolve: %w", path, err)
		}
		f.real = real
	}
	fi, err := os.Stat(f.real)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := os.ReadFile(f.real)
	if err != nil {
		return nil, err
	}
	f.exists, f.mode, f.data = true, fi.Mode().Perm(), data
	return f, nil
}

// writable says whether strobe may replace the file.
func (f *file) writable() error {
	if f.exists && f.mode&0o200 == 0 {
		return &ReadOnlyError{Path: f.path}
	}
	return nil
}

// write replaces the file's bytes atomically (temp file, fsync, rename),
// keeping the previous bytes in a backup beside it and the file's mode.
func (f *file) write(data []byte, newMode fs.FileMode) error {
	if err := f.writable(); err != nil {
		return err
	}
	dir := filepath.Dir(f.real)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := f.unchanged(); err != nil {
		return err
	}
	mode := newMode
	if f.exists {
		mode = f.mode
		if err := atomicWrite(f.real+backupSuffix, f.data, mode); err != nil {
			return fmt.Errorf("writing the backup of %s: %w", f.path, err)
		}
	}
	return atomicWrite(f.real, data, mode)
}

// unchanged guards against an agent rewriting its config (Claude Code
// rewrites ~/.claude.json as it runs) between strobe's read and its write:
// strobe would otherwise put back the bytes it read and lose the agent's.
func (f *file) unchanged() error {
	now, err := os.ReadFile(f.real)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !f.exists:
		return nil
	case err != nil && f.exists:
		return err
	case !f.exists || !bytes.Equal(now, f.data):
		return fmt.Errorf("%s changed while strobe was editing it (is the agent running and writing it?): left as it is now; run strobe install again", f.path)
	}
	return nil
}

// remove deletes the file, keeping its bytes in the backup beside it.
func (f *file) remove() error {
	if err := f.writable(); err != nil {
		return err
	}
	if err := f.unchanged(); err != nil {
		return err
	}
	if err := atomicWrite(f.real+backupSuffix, f.data, f.mode); err != nil {
		return fmt.Errorf("writing the backup of %s: %w", f.path, err)
	}
	return os.Remove(f.real)
}

func atomicWrite(path string, data []byte, mode fs.FileMode) error {
	dir, base := filepath.Split(path)
	tmp, err := os.CreateTemp(dir, "."+base+".strobe-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename this finds nothing
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
