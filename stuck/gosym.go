package stuck

import (
	"debug/elf"
	"debug/gosym"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// A Go test binary that go test ran stripped (-s -w, its default) has no
// symbol table and no DWARF, but it keeps its .gopclntab: the runtime
// needs it for its own tracebacks. That names the functions of eu-stack's
// raw addresses, so a loop's samples compare by function with no relink.
// Goroutines need gdb and DWARF: a copy of the binary linked with DWARF
// (the compile is cached, only the link runs) has the same code at the same
// addresses, its data sections shifted by a few bytes each, so gdb reads
// the live process with that copy's symbols relocated section by section.

// goTables keeps the function tables read last: a suspicion reads the
// same binary and its copy every half second, and the daemon sees new
// test binaries in every run, so only a few are kept.
var goTables struct {
	sync.Mutex
	recent []goTableEntry // newest last
}

type goTableEntry struct {
	exe string
	t   *gosym.Table // nil when unreadable
}

const goTablesKept = 8

// goTable is the function table of a Go binary's .gopclntab, nil when it
// has none.
func goTable(exe string) *gosym.Table {
	goTables.Lock()
	for _, e := range goTables.recent {
		if e.exe == exe {
			goTables.Unlock()
			return e.t
		}
	}
	goTables.Unlock()
	t, _ := readGoTable(exe)
	goTables.Lock()
	defer goTables.Unlock()
	if len(goTables.recent) == goTablesKept {
		goTables.recent = goTables.recent[1:]
	}
	goTables.recent = append(goTables.recent, goTableEntry{exe, t})
	return t
}

func readGoTable(exe string) (*gosym.Table, error) {
	f, err := elf.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		return nil, fmt.Errorf("%s: no .gopclntab", exe)
	}
	data, err := pcln.Data()
	if err != nil {
		return nil, fmt.Errorf("reading .gopclntab: %w", err)
	}
	return gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
}

// symbolizeGo names the frames a stripped Go binary left unnamed, from its
// .gopclntab; with lines, it adds their file and line too.
func symbolizeGo(stacks []Stack, exe string, lines bool) {
	t := goTable(exe)
	if t == nil {
		return
	}
	eachUnnamed(stacks, func(fr *Frame, pc uint64) {
		fn := t.PCToFunc(pc)
		if fn == nil {
			return
		}
		fr.Func = fn.Name
		if lines && fr.File == "" {
			fr.File, fr.Line, _ = t.PCToLine(pc)
		}
	})
}

// goRelocation is the gdb command that loads the symbols of debug, a copy
// of the running binary exe linked with DWARF, at exe's addresses, section
// by section. It refuses a copy whose code differs: the same functions at
// the same addresses, and .text of the same place and size.
func goRelocation(exe, debug string) (string, error) {
	run, err := elf.Open(exe)
	if err != nil {
		return "", err
	}
	defer run.Close()
	dbg, err := elf.Open(debug)
	if err != nil {
		return "", err
	}
	defer dbg.Close()
	rt, dt := run.Section(".text"), dbg.Section(".text")
	if rt == nil || dt == nil || rt.Addr != dt.Addr || rt.Size != dt.Size {
		return "", fmt.Errorf("the binary linked with symbols has other code (.text differs)")
	}
	if !sameFuncs(goTable(exe), goTable(debug)) {
		return "", fmt.Errorf("the binary linked with symbols has other functions")
	}
	cmd := []string{"add-symbol-file", gdbQuote(debug), fmt.Sprintf("0x%x", rt.Addr)}
	for _, s := range dbg.Sections {
		r := run.Section(s.Name)
		if s.Flags&elf.SHF_ALLOC == 0 || s.Name == ".text" || r == nil {
			continue
		}
		cmd = append(cmd, "-s", s.Name, fmt.Sprintf("0x%x", r.Addr))
	}
	return strings.Join(cmd, " "), nil
}

// sameFuncs says whether two function tables have the same functions at
// the same addresses.
func sameFuncs(a, b *gosym.Table) bool {
	if a == nil || b == nil || len(a.Funcs) != len(b.Funcs) {
		return false
	}
	return slices.EqualFunc(a.Funcs, b.Funcs, func(x, y gosym.Func) bool {
		return x.Entry == y.Entry && x.End == y.End && x.Name == y.Name
	})
}

// gdbQuote quotes a path for a gdb command line.
func gdbQuote(p string) string {
	if !strings.ContainsAny(p, " \t'\"\\") {
		return p
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p) + `"`
}

// eachUnnamed calls name with every frame no tool named and the address to
// look it up at: a caller's frame holds a return address, and the call is
// the instruction before.
func eachUnnamed(stacks []Stack, name func(fr *Frame, pc uint64)) {
	for i := range stacks {
		for j := range stacks[i].Frames {
			fr := &stacks[i].Frames[j]
			if fr.pc == 0 || (fr.Func != "??" && fr.Func != "") {
				continue
			}
			pc := fr.pc
			if j > 0 {
				pc--
			}
			name(fr, pc)
		}
	}
}
