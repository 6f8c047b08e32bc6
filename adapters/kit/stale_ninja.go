package kit

import (
	"os"
	"path/filepath"
	"strings"
)

// maxNinjaFile bounds the build.ninja and .ninja_deps staleNinja reads.
const maxNinjaFile = 64 << 20

// ninjaEdge is a build statement of build.ninja: its rule and inputs.
type ninjaEdge struct {
	rule     string
	explicit []string
	implicit []string
}

// ninjaObjects are the objects a binary is linked from under Ninja, by
// their paths in build.ninja (relative to the build directory): its own
// target's (the link's explicit inputs) and those of the libraries it
// links (implicit inputs another link builds), followed to
// maxLinkedTargets. ok is false when build.ninja is not there or does not
// build the binary.
func ninjaObjects(build, bin string) (own, linked []string, ok bool) {
	b, err := readBounded(filepath.Join(build, "build.ninja"))
	if err != nil {
		return nil, nil, false
	}
	edges := ninjaEdges(string(b))
	rel, err := filepath.Rel(build, bin)
	if err != nil {
		return nil, nil, false
	}
	start, found := edges[filepath.ToSlash(rel)]
	if !found || !strings.Contains(start.rule, "LINKER") {
		return nil, nil, false
	}
	own = objectsOf(start.explicit)
	seen := map[string]bool{}
	queue := slicesClone(start.implicit)
	for i := 0; i < len(queue) && len(seen) < maxLinkedTargets; i++ {
		e, found := edges[queue[i]]
		if seen[queue[i]] || !found || !strings.Contains(e.rule, "LINKER") {
			continue
		}
		seen[queue[i]] = true
		linked = append(linked, objectsOf(e.explicit)...)
		queue = append(queue, e.implicit...)
	}
	return own, linked, true
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func objectsOf(inputs []string) []string {
	var out []string
	for _, in := range inputs {
		if strings.HasSuffix(in, ".o") || strings.HasSuffix(in, ".obj") {
			out = append(out, in)
		}
	}
	return out
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || st.Size() > maxNinjaFile {
		return nil, os.ErrInvalid
	}
	return os.ReadFile(path)
}

// ninjaEdges reads build.ninja's build statements by output: `build OUTS
// [| IMPLICIT_OUTS]: RULE INPUTS [| IMPLICIT] [|| ORDER_ONLY] [|@ …]`,
// a line ending in $ going on, $ escaping a space, a colon, a newline
// or itself.
func ninjaEdges(text string) map[string]ninjaEdge {
	edges := map[string]ninjaEdge{}
	text = strings.ReplaceAll(text, "$\n", "")
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "build ")
		if !ok {
			continue
		}
		toks := ninjaTokens(rest)
		colon := -1
		for i, t := range toks {
			if t == ":" {
				colon = i
				break
			}
		}
		if colon < 0 || colon+1 >= len(toks) {
			continue
		}
		e := ninjaEdge{rule: toks[colon+1]}
		part := 0
		for _, t := range toks[colon+2:] {
			switch t {
			case "|":
				part = 1
			case "||", "|@":
				part = 2
			default:
				switch part {
				case 0:
					e.explicit = append(e.explicit, t)
				case 1:
					e.implicit = append(e.implicit, t)
				}
			}
		}
		for _, out := range toks[:colon] {
			if out != "|" {
				edges[out] = e
			}
		}
	}
	return edges
}

// ninjaTokens splits a build statement at its unescaped spaces, an
// unescaped colon being a token of its own.
func ninjaTokens(s string) []string {
	var toks []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '$' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == ':':
			flush()
			toks = append(toks, ":")
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return toks
}

// ninjaDeps reads the dependencies Ninja recorded from the compiler's
// depfiles (.ninja_deps, versions 3 and 4) for the outputs wanted: a
// record of a path (its id is its order), or of an output's
// dependencies (the latest wins). ok is false when the log cannot be
// read.
func ninjaDeps(build string, wanted map[string]bool) (deps map[string][]string, ok bool) {
	b, err := readBounded(filepath.Join(build, ".ninja_deps"))
	const magic = "# ninjadeps\n"
	if err != nil || len(b) < len(magic)+4 || string(b[:len(magic)]) != magic {
		return nil, false
	}
	version := le32(b[len(magic):])
	if version != 3 && version != 4 {
		return nil, false
	}
	mtime := 4
	if version == 4 {
		mtime = 8
	}
	var paths []string
	byID := map[int32][]int32{}
	for at := len(magic) + 4; at+4 <= len(b); {
		head := le32(b[at:])
		size := int(head & 0x7fffffff)
		at += 4
		if at+size > len(b) || size < 4 {
			break
		}
		rec := b[at : at+size]
		at += size
		if head&0x80000000 == 0 {
			paths = append(paths, strings.TrimRight(string(rec[:size-4]), "\x00"))
			continue
		}
		if size < 4+mtime {
			continue
		}
		out := int32(le32(rec))
		var ids []int32
		for i := 4 + mtime; i+4 <= size; i += 4 {
			ids = append(ids, int32(le32(rec[i:])))
		}
		byID[out] = ids
	}
	deps = map[string][]string{}
	for out, ids := range byID {
		if int(out) >= len(paths) || out < 0 || !wanted[paths[out]] {
			continue
		}
		var list []string
		for _, id := range ids {
			if id >= 0 && int(id) < len(paths) {
				list = append(list, paths[id])
			}
		}
		deps[paths[out]] = list
	}
	return deps, true
}

// le32 is the little-endian uint32 at the start of b.
func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
