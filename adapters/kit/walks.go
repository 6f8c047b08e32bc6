package kit

import (
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
)

// walkBound is how many entries one WalkLimited visits at most.
const walkBound = 20000

// A detection asks every adapter whether the project is theirs, and six of
// them walk its tree for their files (CMakeLists.txt, Python and node test
// files): on a 3,500-file repository, 17 ms a run. ShareWalks has those
// walks read one listing of the tree, made by the first of them.
var shared struct {
	sync.Mutex
	by map[string]*listing // by root
}

// listing is a project tree as the walks see it: every file and
// directory, in WalkDir's order, down to listDepth levels, without the
// hidden directories and other projects' trees that every walk skips.
type listing struct {
	refs    int
	once    sync.Once
	entries []listed
	// cut says the tree holds more than listBound entries: the walks then
	// walk it themselves, each within its own bound.
	cut bool
}

type listed struct {
	rel   string // relative to the root, OS separators
	d     fs.DirEntry
	depth int // separators in rel
	// skipped marks a directory every walk skips (hidden, another
	// project's tree): listed without its entries, counted as visited.
	skipped bool
}

const (
	// listDepth is the deepest walk of a detection (node's test files); a
	// deeper walk walks the tree itself.
	listDepth = 6
	listBound = 5 * walkBound
)

// ShareWalks has the walks of root (WalkLimited) share one listing of it
// until done is called; nested and concurrent calls share it too. The tree
// is listed on the first walk, not here.
func ShareWalks(root string) (done func()) {
	root = filepath.Clean(root)
	shared.Lock()
	defer shared.Unlock()
	if shared.by == nil {
		shared.by = map[string]*listing{}
	}
	l := shared.by[root]
	if l == nil {
		l = &listing{}
		shared.by[root] = l
	}
	l.refs++
	return sync.OnceFunc(func() {
		shared.Lock()
		defer shared.Unlock()
		if l.refs--; l.refs == 0 {
			delete(shared.by, root)
		}
	})
}

// sharedListing is root's listing for a walk depth levels down, made now
// if this is its first walk; nil outside ShareWalks, for a deeper walk, or
// when the tree is too big to list.
func sharedListing(root string, depth int) *listing {
	if depth > listDepth {
		return nil
	}
	root = filepath.Clean(root)
	shared.Lock()
	l := shared.by[root]
	shared.Unlock()
	if l == nil {
		return nil
	}
	l.once.Do(func() { l.list(root) })
	if l.cut {
		return nil
	}
	return l
}

func (l *listing) list(root string) {
	top := walkRoot(root)
	filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == top {
			return nil
		}
		if len(l.entries) == listBound {
			l.cut = true
			return fs.SkipAll
		}
		rel, _ := filepath.Rel(root, path)
		depth := strings.Count(rel, string(filepath.Separator))
		if d.IsDir() && skippedByAll(path, d.Name()) {
			l.entries = append(l.entries, listed{rel, d, depth, true})
			return filepath.SkipDir
		}
		l.entries = append(l.entries, listed{rel: rel, d: d, depth: depth})
		if d.IsDir() && depth >= listDepth {
			return filepath.SkipDir
		}
		return nil
	})
}

// walk replays the listing as WalkLimited would walk the tree: the same
// files, in the same order, within the same bound.
func (l *listing) walk(root string, depth int, fn func(string, fs.DirEntry), skip func(string) bool) {
	visited := 1  // the root
	skipped := "" // a directory this walk skips, with a trailing separator
	for _, e := range l.entries {
		if skipped != "" && strings.HasPrefix(e.rel, skipped) {
			continue
		}
		skipped = ""
		if visited++; visited > walkBound {
			return
		}
		if e.d.IsDir() {
			if e.skipped || e.depth >= depth || (skip != nil && skip(e.d.Name())) {
				skipped = e.rel + string(filepath.Separator)
			}
			continue
		}
		fn(filepath.Join(root, e.rel), e.d)
	}
}
