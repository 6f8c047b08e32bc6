package stuck

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The stack samples that are only compared (Opts.Lines false) take
// addresses from `eu-stack -q` and name them here. eu-stack looks each
// address up in a linear pass over the module's symbols: for node
// (153,000 functions) 2 to 3 ms a frame, 140 ms of CPU a sample, a sample
// every 250 ms while a silent busy test is judged. Here each file's
// function symbols are read once per detector and searched in order: a
// sample of node's costs about as much as `eu-stack -q` itself.

// symbolizer names the addresses of a process's frames from the symbol
// tables of the files it maps, each read once.
type symbolizer struct {
	mu    sync.Mutex           // held by name: the files and their names' caches
	files map[fileKey]*symFile // nil: a file without usable symbols
}

type fileKey struct {
	path        string
	size, mtime int64
}

// symFile is one mapped file's function symbols, sorted by address, and
// its loadable segments, which turn a file offset into an address.
type symFile struct {
	path   string // the file the names are read from (a debug file, or the binary)
	strOff int64  // where its string table starts
	loads  []elf.ProgHeader
	funcs  []funcSym
	names  map[uint32]string
}

type funcSym struct {
	addr, size uint64
	name       uint32 // offset in the string table
	bind       uint8  // elf.SymBind: 24 bytes a symbol, 3.7 MB for node's
}

// mapping is an executable mapping of /proc/PID/maps.
type mapping struct {
	start, end, off uint64
	path            string
}

// name fills in the names of frames eu-stack -q left unnamed, as eu-stack
// would (C++ and Rust names demangled as far as nested names go).
func (z *symbolizer) name(pid int, stacks []Stack) {
	maps := readMaps(pid)
	if len(maps) == 0 {
		return
	}
	z.mu.Lock()
	defer z.mu.Unlock()
	files := map[string]*symFile{} // each mapped file stat'ed once a capture, not once a frame
	eachUnnamed(stacks, func(fr *Frame, pc uint64) {
		if fn := z.lookup(maps, files, pc); fn != "" {
			fr.Func = demangleRust(demangleNested(fn))
		}
	})
}

func (z *symbolizer) lookup(maps []mapping, files map[string]*symFile, pc uint64) string {
	k, ok := slices.BinarySearchFunc(maps, pc, func(m mapping, pc uint64) int {
		switch {
		case m.end <= pc:
			return -1
		case m.start > pc:
			return 1
		}
		return 0
	})
	if !ok {
		return ""
	}
	m := maps[k]
	sf, seen := files[m.path]
	if !seen {
		sf = z.file(m.path)
		files[m.path] = sf
	}
	if sf == nil {
		return ""
	}
	off := pc - m.start + m.off
	for _, p := range sf.loads {
		if off >= p.Off && off < p.Off+p.Filesz {
			return sf.at(off - p.Off + p.Vaddr)
		}
	}
	return ""
}

// at names the function that holds addr, "" when none does.
func (sf *symFile) at(addr uint64) string {
	i, _ := slices.BinarySearchFunc(sf.funcs, addr, func(s funcSym, a uint64) int {
		if s.addr <= a {
			return -1
		}
		return 1
	})
	if i == 0 {
		return ""
	}
	s := sf.funcs[i-1]
	if addr >= s.addr+max(s.size, 1) {
		return ""
	}
	if n, ok := sf.names[s.name]; ok {
		return n
	}
	n := sf.readName(s.name)
	sf.names[s.name] = n
	return n
}

func (sf *symFile) readName(off uint32) string {
	f, err := os.Open(sf.path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 1024)
	n, _ := f.ReadAt(buf, sf.strOff+int64(off))
	if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
		return string(buf[:i])
	}
	return ""
}

func (z *symbolizer) file(path string) *symFile {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	key := fileKey{path, fi.Size(), fi.ModTime().UnixNano()}
	if sf, ok := z.files[key]; ok {
		return sf
	}
	sf := readSymFile(path)
	if z.files == nil {
		z.files = map[fileKey]*symFile{}
	}
	z.files[key] = sf
	return sf
}

// readSymFile reads path's loadable segments, and the function symbols of
// its debug file (/usr/lib/debug/.build-id, as eu-stack finds it) or of
// its own .symtab, or .dynsym when it has none.
func readSymFile(path string) *symFile {
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	sf := &symFile{names: map[uint32]string{}}
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD {
			sf.loads = append(sf.loads, p.ProgHeader)
		}
	}
	if dbg := debugFile(f); dbg != "" {
		if df, err := elf.Open(dbg); err == nil {
			ok := sf.readFuncs(df, dbg, elf.SHT_SYMTAB)
			df.Close()
			if ok {
				return sf
			}
		}
	}
	if sf.readFuncs(f, path, elf.SHT_SYMTAB) || sf.readFuncs(f, path, elf.SHT_DYNSYM) {
		return sf
	}
	return nil
}

// readFuncs keeps the function symbols of f's first table of type typ.
func (sf *symFile) readFuncs(f *elf.File, path string, typ elf.SectionType) bool {
	if f.Class != elf.ELFCLASS64 || f.ByteOrder != binary.LittleEndian {
		return false // what eu-stack runs on here: 64-bit little-endian
	}
	var tab *elf.Section
	for _, s := range f.Sections {
		if s.Type == typ {
			tab = s
			break
		}
	}
	if tab == nil || int(tab.Link) >= len(f.Sections) || tab.Type == elf.SHT_NOBITS {
		return false
	}
	data, err := tab.Data()
	if err != nil {
		return false
	}
	const symSize = 24 // Elf64_Sym
	funcs := make([]funcSym, 0, len(data)/symSize/2)
	for b := data; len(b) >= symSize; b = b[symSize:] {
		info := b[4]
		value := binary.LittleEndian.Uint64(b[8:])
		if elf.ST_TYPE(info) != elf.STT_FUNC || value == 0 {
			continue
		}
		funcs = append(funcs, funcSym{addr: value, size: binary.LittleEndian.Uint64(b[16:]), name: binary.LittleEndian.Uint32(b[0:]), bind: uint8(elf.ST_BIND(info))})
	}
	if len(funcs) == 0 {
		return false
	}
	// Aliases share an address (libc's __GI___pthread_cond_wait and
	// pthread_cond_wait@@GLIBC_2.3.2): the first after sorting is kept,
	// global before weak before local, as eu-stack names them.
	rank := func(b uint8) int {
		switch elf.SymBind(b) {
		case elf.STB_GLOBAL:
			return 0
		case elf.STB_WEAK:
			return 1
		}
		return 2
	}
	slices.SortStableFunc(funcs, func(a, b funcSym) int {
		switch {
		case a.addr < b.addr:
			return -1
		case a.addr > b.addr:
			return 1
		}
		return rank(a.bind) - rank(b.bind)
	})
	funcs = slices.CompactFunc(funcs, func(a, b funcSym) bool { return a.addr == b.addr })
	sf.funcs, sf.path, sf.strOff = funcs, path, int64(f.Sections[tab.Link].Offset)
	return true
}

// debugFile is the separate debug file of f that eu-stack would read, by
// its build id, "" when there is none.
func debugFile(f *elf.File) string {
	s := f.Section(".note.gnu.build-id")
	if s == nil {
		return ""
	}
	note, err := s.Data()
	// namesz, descsz, type, "GNU\0", then the id.
	if err != nil || len(note) < 16 {
		return ""
	}
	descsz := binary.LittleEndian.Uint32(note[4:])
	if int(16+descsz) > len(note) || descsz < 2 {
		return ""
	}
	id := hex.EncodeToString(note[16 : 16+descsz])
	p := filepath.Join("/usr/lib/debug/.build-id", id[:2], id[2:]+".debug")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// readMaps lists pid's executable file mappings, in address order.
func readMaps(pid int) []mapping {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/maps")
	if err != nil {
		return nil
	}
	defer f.Close()
	var maps []mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// 00400000-00a3f000 r-xp 00000000 08:01 1234   /usr/bin/node
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || !strings.HasPrefix(fs[5], "/") || len(fs[1]) < 3 || fs[1][2] != 'x' {
			continue
		}
		lo, hi, ok := strings.Cut(fs[0], "-")
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		off, err3 := strconv.ParseUint(fs[2], 16, 64)
		if !ok || err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		maps = append(maps, mapping{start, end, off, strings.Join(fs[5:], " ")})
	}
	return maps
}

// demangleNested reads the nested name of an Itanium-mangled symbol
// (C++'s, and Rust's legacy scheme): _ZN2v88internal6InvokeE… becomes
// v8::internal::Invoke, _ZN3std2rt10lang_start17h…E std::rt::lang_start::h…,
// a constructor or destructor its class's name (~ for the destructor).
// Argument types are left out: only the functions' identities matter to
// samples, and a library's namespace, by which its frames are trimmed. A
// symbol with template arguments, or anything else it does not read,
// comes back as it was.
func demangleNested(sym string) string {
	s, ok := strings.CutPrefix(sym, "_Z")
	if !ok {
		return sym
	}
	var parts []string
	nested := strings.HasPrefix(s, "N")
	if nested {
		s = strings.TrimLeft(s[1:], "rVKRO") // a method's cv- and ref-qualifiers
	}
	if strings.HasPrefix(s, "St") {
		parts, s = append(parts, "std"), s[2:]
	}
	for len(s) > 0 {
		switch c := s[0]; {
		case c == 'I':
			// Template arguments: not read, and the symbol stays as it
			// was. So does its frame in the comparison: eu-stack's names
			// of function templates start with their return type ("void
			// std::__introsort_loop<…>(…)"), so a sort's frames were
			// never trimmed as a library's, and honest sorting must not
			// become a loop in its caller.
			return sym
		case (c == 'C' || c == 'D') && len(s) > 1 && s[1] >= '0' && s[1] <= '9' && len(parts) > 0:
			class := parts[len(parts)-1]
			if c == 'D' {
				class = "~" + class
			}
			parts = append(parts, class)
			s = s[2:]
		case c == 'L' && len(s) > 1 && s[1] >= '0' && s[1] <= '9':
			s = s[1:] // internal linkage: a static function
			continue
		case c >= '0' && c <= '9':
			name, rest, ok := sourceName(s)
			if !ok {
				return sym
			}
			parts, s = append(parts, name), rest
		default:
			if len(parts) == 0 || nested && c != 'E' {
				return sym
			}
			return strings.Join(parts, "::")
		}
		if !nested {
			if strings.HasPrefix(s, "I") {
				return sym // template arguments, as above
			}
			break
		}
	}
	if len(parts) == 0 || nested && len(s) == 0 {
		return sym
	}
	return strings.Join(parts, "::")
}

// sourceName reads <length><identifier>.
func sourceName(s string) (name, rest string, ok bool) {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 {
		return "", s, false
	}
	l, err := strconv.Atoi(s[:n])
	if err != nil || l <= 0 || n+l > len(s) {
		return "", s, false
	}
	name = s[n : n+l]
	if strings.HasPrefix(name, "_GLOBAL__N") {
		name = "(anonymous namespace)"
	}
	return name, s[n+l:], true
}
