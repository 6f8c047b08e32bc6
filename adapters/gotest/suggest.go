package gotest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Suggested traces of a t.Errorf or t.Fatalf failure. Its stack is the
// test's own, so the project functions worth tracing are read from the
// source instead: those the failing line calls or, when it calls none
// (t.Errorf("got %d", got)), those whose results it reads (got :=
// Total(…) above it), then the project functions these call, breadth
// first, so that a wrong argument passed further down is traced too.
// Only functions of the project's modules are named, as the tracer's
// patterns write them: the import path's last element and the name
// (shop.Total); a method called on a value, whose type a parser cannot
// know, when its name is one method's alone (shop.(*Cart).Add).

// suggestDepth bounds how far below the failing line's calls the
// suggestions go.
const suggestDepth = 2

// goFunc is a function or method found in the source.
type goFunc struct {
	decl    *ast.FuncDecl
	recv    string            // a method's receiver as Delve names it: (*T) or T
	imports map[string]string // the file's imports by local name
	pkg     *goSource
}

// goSource is one package's non-test functions and methods, parsed once
// per run.
type goSource struct {
	importPath string
	funcs      map[string]*goFunc
	methods    map[string][]*goFunc // by name
}

// name is g's trace pattern: shop.Total, shop.(*Cart).Add.
func (g *goFunc) name() string {
	n := path.Base(g.pkg.importPath) + "."
	if g.recv != "" {
		n += g.recv + "."
	}
	return n + g.decl.Name.Name
}

// callTraces suggests traces for the failure at file:line (relative to
// the project root) of test, in the test package importPath. A failure in
// a helper whose lines read no project function (go-humanize's
// testList.validate, without t.Helper) gets those its test calls.
func (p *goParser) callTraces(importPath, file string, line int, test string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(p.root, file), nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	fn := enclosingFunc(fset, f, line)
	if fn == nil {
		return nil
	}
	own := p.goSource(strings.TrimSuffix(importPath, "_test"))
	imports := fileImports(f)
	calls := callsAt(fset, fn.Body, line)
	first := p.resolveAll(calls, imports, own)
	if len(first) == 0 {
		calls = callsBehind(fset, fn.Body, line)
		first = p.resolveAll(calls, imports, own)
	}
	if len(first) == 0 {
		first = p.testCalls(filepath.Dir(file), test, fn, own)
	}
	var out []string
	seen := map[*goFunc]bool{}
	level := first
	for depth := 0; depth <= suggestDepth && len(level) > 0; depth++ {
		var next []*goFunc
		for _, g := range level {
			if seen[g] {
				continue
			}
			seen[g] = true
			if len(out) == goTraces-1 {
				// The walk goes on past the bound: the last suggestion
				// is the package it was in, its functions all (pkg.*).
				return append(out, path.Base(g.pkg.importPath)+".*")
			}
			out = append(out, g.name())
			if g.decl.Body != nil {
				var inner []*ast.CallExpr
				ast.Inspect(g.decl.Body, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok {
						inner = append(inner, c)
					}
					return true
				})
				next = append(next, p.resolveAll(inner, g.imports, g.pkg)...)
			}
		}
		level = next
	}
	return out
}

// testCalls are the project functions test's own function calls, when the
// failure is in another function (a helper): test is declared in one of
// dir's _test.go files.
func (p *goParser) testCalls(dir, test string, failing *ast.FuncDecl, own *goSource) []*goFunc {
	top, _, _ := strings.Cut(test, "/")
	if top == "" || failing.Recv == nil && failing.Name.Name == top {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(p.root, dir, "*_test.go"))
	for _, name := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == top && fd.Body != nil {
				return p.resolveAll(callsIn(fd.Body), fileImports(f), own)
			}
		}
	}
	return nil
}

// enclosingFunc is the function declaration of f that spans line.
func enclosingFunc(fset *token.FileSet, f *ast.File, line int) *ast.FuncDecl {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil && spans(fset, fn, line) {
			return fn
		}
	}
	return nil
}

func spans(fset *token.FileSet, n ast.Node, line int) bool {
	return fset.Position(n.Pos()).Line <= line && line <= fset.Position(n.End()).Line
}

// callsAt are the calls of the innermost statement at line.
func callsAt(fset *token.FileSet, body *ast.BlockStmt, line int) []*ast.CallExpr {
	var stmt ast.Stmt
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || !spans(fset, n, line) {
			return false
		}
		if s, ok := n.(ast.Stmt); ok {
			if _, block := s.(*ast.BlockStmt); !block {
				stmt = s
			}
		}
		return true
	})
	if stmt == nil {
		return nil
	}
	return callsIn(onlyHead(stmt))
}

// onlyHead keeps a compound statement's head: an if's init and
// condition, not the branches around the failing line.
func onlyHead(s ast.Stmt) ast.Node {
	if is, ok := s.(*ast.IfStmt); ok {
		return &ast.IfStmt{Init: is.Init, Cond: is.Cond, Body: &ast.BlockStmt{}}
	}
	return s
}

func callsIn(n ast.Node) []*ast.CallExpr {
	var calls []*ast.CallExpr
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			calls = append(calls, c)
		}
		return true
	})
	return calls
}

// callsBehind are the calls of the conditions around the failing line,
// then those that computed the variables it and the conditions read: the
// right-hand sides of the assignments to them above the line, nearest
// first.
func callsBehind(fset *token.FileSet, body *ast.BlockStmt, line int) []*ast.CallExpr {
	read := map[string]bool{}
	var conds []ast.Expr // the conditions around the line, innermost last
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil || !spans(fset, n, line) {
			return false
		}
		var head ast.Node
		switch s := n.(type) {
		case *ast.IfStmt:
			head = s.Cond
			conds = append(conds, s.Cond)
		case *ast.ExprStmt, *ast.ReturnStmt:
			if fset.Position(s.Pos()).Line <= line {
				head = s
			}
		}
		if head != nil {
			ast.Inspect(head, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					read[id.Name] = true
				}
				return true
			})
		}
		return true
	})
	// The definitions above the line: assignments, var declarations and
	// range clauses, each its names and what they come from.
	type def struct {
		names []string
		from  []ast.Node
	}
	var defs []def
	idents := func(es ...ast.Expr) []string {
		var out []string
		for _, e := range es {
			if id, ok := e.(*ast.Ident); ok {
				out = append(out, id.Name)
			}
		}
		return out
	}
	ast.Inspect(body, func(n ast.Node) bool {
		s, ok := n.(ast.Stmt)
		if !ok || fset.Position(s.Pos()).Line > line {
			return n != nil
		}
		switch s := s.(type) {
		case *ast.AssignStmt:
			d := def{names: idents(s.Lhs...)}
			for _, r := range s.Rhs {
				d.from = append(d.from, r)
			}
			defs = append(defs, d)
		case *ast.RangeStmt:
			defs = append(defs, def{names: idents(s.Key, s.Value), from: []ast.Node{s.X}})
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok {
				for _, sp := range g.Specs {
					if v, ok := sp.(*ast.ValueSpec); ok {
						d := def{}
						for _, id := range v.Names {
							d.names = append(d.names, id.Name)
						}
						for _, r := range v.Values {
							d.from = append(d.from, r)
						}
						defs = append(defs, d)
					}
				}
			}
		}
		return true
	})
	var calls []*ast.CallExpr
	for i := len(conds) - 1; i >= 0; i-- {
		calls = append(calls, callsIn(conds[i])...)
	}
	// Follow the values back a few definitions (actual from match from
	// tmpl.Match(…)), nearest first.
	used := make([]bool, len(defs))
	for range behindHops {
		var more []string
		for i := len(defs) - 1; i >= 0; i-- {
			if used[i] || !slices.ContainsFunc(defs[i].names, func(n string) bool { return read[n] }) {
				continue
			}
			used[i] = true
			for _, from := range defs[i].from {
				calls = append(calls, callsIn(from)...)
				ast.Inspect(from, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						more = append(more, id.Name)
					}
					return true
				})
			}
		}
		for _, n := range more {
			read[n] = true
		}
	}
	return calls
}

// behindHops bounds how many definitions back a value is followed.
const behindHops = 3

// fileImports maps a file's import names to their paths.
func fileImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		ip, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(ip)
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = ip
	}
	return m
}

// resolveAll resolves calls to the project's package-level functions:
// F() of the calling package, pkg.F() of an imported project package.
func (p *goParser) resolveAll(calls []*ast.CallExpr, imports map[string]string, own *goSource) []*goFunc {
	var out []*goFunc
	for _, c := range calls {
		fun := c.Fun
		switch x := fun.(type) { // generic instantiations: F[T](…)
		case *ast.IndexExpr:
			fun = x.X
		case *ast.IndexListExpr:
			fun = x.X
		}
		var g *goFunc
		switch x := fun.(type) {
		case *ast.Ident:
			if own != nil {
				g = own.funcs[x.Name]
			}
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && imports[id.Name] != "" {
				if src := p.goSource(imports[id.Name]); src != nil {
					g = src.funcs[x.Sel.Name]
				}
				break
			}
			g = p.method(x.Sel.Name, imports, own)
		}
		if g != nil {
			out = append(out, g)
		}
	}
	return out
}

// method resolves v.M() without v's type: the one method named M of the
// calling package and the project packages its file imports; none when
// several have it.
func (p *goParser) method(name string, imports map[string]string, own *goSource) *goFunc {
	var found []*goFunc
	if own != nil {
		found = append(found, own.methods[name]...)
	}
	for _, ip := range imports {
		if src := p.goSource(ip); src != nil && src != own {
			found = append(found, src.methods[name]...)
		}
	}
	if len(found) != 1 {
		return nil
	}
	return found[0]
}

// receiver is a method's receiver type as Delve names it.
func receiver(fn *ast.FuncDecl) string {
	t := fn.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		t, star = s.X, true
	}
	switch x := t.(type) { // generic receivers: T[K]
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return ""
	}
	if star {
		return "(*" + id.Name + ")"
	}
	return id.Name
}

// goSource parses a project package's non-test files once; nil for a
// package outside the project's modules.
func (p *goParser) goSource(importPath string) *goSource {
	if src, ok := p.sources[importPath]; ok {
		return src
	}
	if p.sources == nil {
		p.sources = map[string]*goSource{}
	}
	p.sources[importPath] = nil
	dir, ok := p.pkgDir(importPath)
	if !ok {
		return nil
	}
	abs := filepath.Join(p.root, dir)
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil
	}
	src := &goSource{importPath: importPath, funcs: map[string]*goFunc{}, methods: map[string][]*goFunc{}}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(abs, name), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		imports := fileImports(f)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			switch {
			case !ok:
			case fn.Recv == nil && fn.Name.Name != "init":
				src.funcs[fn.Name.Name] = &goFunc{decl: fn, imports: imports, pkg: src}
			case fn.Recv != nil && len(fn.Recv.List) == 1:
				if r := receiver(fn); r != "" {
					src.methods[fn.Name.Name] = append(src.methods[fn.Name.Name], &goFunc{decl: fn, recv: r, imports: imports, pkg: src})
				}
			}
		}
	}
	p.sources[importPath] = src
	return src
}
