package daemon

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
)

// Every connection to the socket starts with one line of JSON from the
// client (Hello) and one from the daemon (Welcome); the bytes after them are
// MCP. The hello carries what a run needs from the client and MCP has no
// place for: its environment (DESIGN.md, "Environment").
const protocolVersion = 1

// maxHelloLine bounds the first line: an environment is rarely over 100 KiB.
const maxHelloLine = 4 << 20

// Hello is the client's first line.
type Hello struct {
	Strobe  int      `json:"strobe"`
	Version string   `json:"version"`
	Build   string   `json:"build"`
	PID     int      `json:"pid"`
	Env     []string `json:"env"`
}

// Welcome is the daemon's answer. Error set means the daemon refused the
// connection and closes it.
type Welcome struct {
	Strobe  int    `json:"strobe"`
	Version string `json:"version"`
	Build   string `json:"build"`
	PID     int    `json:"pid"`
	Error   string `json:"error,omitempty"`
}

// NewHello is this process's hello: its version, build and environment.
func NewHello(version string) Hello {
	return Hello{Strobe: protocolVersion, Version: version, Build: BuildID(), PID: os.Getpid(), Env: os.Environ()}
}

// readLine reads one newline-terminated line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if err == nil {
			return bytes.TrimRight(line, "\r\n"), nil
		}
		if err != bufio.ErrBufferFull {
			if err == io.EOF && len(line) > 0 {
				// The stream ended inside a line: what came is
				// returned with the error, for a reader that takes a
				// last line without its newline.
				return bytes.TrimRight(line, "\r\n"), io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if len(line) > max {
			return nil, fmt.Errorf("line longer than %d bytes", max)
		}
	}
}

func writeLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// BuildID identifies this executable: the Go build ID the linker writes at
// the start of the text segment (a hash of the build's inputs), so two
// builds of the same version still tell apart. An ELF binary has it in
// its first page (at 3940 bytes in strobe's); other formats get a longer
// read.
//
// On Linux it reads /proc/self/exe, the program this process runs, even
// when the file on disk was replaced or removed since (a new build, or a
// daemon restarted in place after it): the path could name another build.
var BuildID = sync.OnceValue(func() string {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		exe, err := os.Executable()
		if err != nil {
			return "unknown"
		}
		if f, err = os.Open(exe); err != nil {
			return "unknown"
		}
	}
	defer f.Close()
	if id, ok := buildIDIn(f, 8<<10); ok {
		return id
	}
	if id, ok := buildIDIn(f, 256<<10); ok {
		return id
	}
	if fi, err := f.Stat(); err == nil {
		return strconv.FormatInt(fi.Size(), 36) + "-" + strconv.FormatInt(fi.ModTime().UnixNano(), 36)
	}
	return "unknown"
})

// buildIDIn looks for the Go build ID in the first size bytes of f.
func buildIDIn(f *os.File, size int) (string, bool) {
	buf := make([]byte, size)
	n, _ := f.ReadAt(buf, 0)
	buf = buf[:n]
	// ELF: a note named "Go" of type 4 (namesz 4, descsz, type, name, desc).
	if i := bytes.Index(buf, []byte("\x04\x00\x00\x00Go\x00\x00")); i >= 8 {
		n := int(binary.LittleEndian.Uint32(buf[i-4:]))
		if start := i + 8; n > 0 && n < 512 && start+n <= len(buf) {
			return string(buf[start : start+n]), true
		}
	}
	// Mach-O and others: the linker's marker string.
	const marker = "\xff Go build ID: \""
	if i := bytes.Index(buf, []byte(marker)); i >= 0 {
		rest := buf[i+len(marker):]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			return string(rest[:j]), true
		}
	}
	return "", false
}
