package oplog_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var updateKeys = flag.Bool("update", false, "rewrite web/src/features/logs/detailKeys.json from the code")

// keysFile lists every detail key the server writes with its parameter names; the console's test holds each
// language's `detail.<key>` template to it.
const keysFile = "../../web/src/features/logs/detailKeys.json"

// Every operation-log write in the server (a call passing an oplog.<Type> constant: Log.Write, Log.By and the
// helpers that forward to them) carries a detail after its remark, every detail is built by oplog.D with a literal
// key and literal parameter names, and the keys and parameters are exactly those of detailKeys.json.
func TestEveryLogWriteCarriesAListedDetail(t *testing.T) {
	fset := token.NewFileSet()
	types := logTypes(t, fset)
	keys := map[string][]string{}
	writes := 0
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if isSel(call.Fun, "oplog", "D") {
				key, params, ok := literalDetail(call)
				if !ok {
					t.Errorf("%s: oplog.D needs a literal key and literal parameter names", fset.Position(call.Pos()))
					return true
				}
				if prev, seen := keys[key]; seen && !slices.Equal(prev, params) {
					t.Errorf("%s: detail %q written with parameters %v and elsewhere %v", fset.Position(call.Pos()), key, params, prev)
				}
				keys[key] = params
				return true
			}
			for i, a := range call.Args {
				if sel, ok := a.(*ast.SelectorExpr); ok && isSel(sel, "oplog", sel.Sel.Name) && types[sel.Sel.Name] {
					writes++
					if len(call.Args) < i+3 {
						t.Errorf("%s: log write of oplog.%s carries no detail after its remark", fset.Position(call.Pos()), sel.Sel.Name)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if writes < 40 {
		t.Fatalf("found %d log writes; the scan is broken", writes)
	}
	want, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *updateKeys {
		if err := os.WriteFile(keysFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(keysFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the detail keys the code writes (go test ./internal/oplog -run TestEveryLogWriteCarriesAListedDetail -update):\n%s", keysFile, want)
	}
}

// logTypes are the names of oplog's Type constants.
func logTypes(t *testing.T, fset *token.FileSet) map[string]bool {
	f, err := parser.ParseFile(fset, "oplog.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Type" {
				for _, n := range v.Names {
					out[n.Name] = true
				}
			}
		}
	}
	if len(out) < 40 {
		t.Fatalf("found %d log types in oplog.go", len(out))
	}
	return out
}

func isSel(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == pkg && sel.Sel.Name == name
}

// literalDetail reads oplog.D("key", "name", value, …): the key and the sorted parameter names.
func literalDetail(call *ast.CallExpr) (string, []string, bool) {
	if len(call.Args) == 0 || len(call.Args)%2 == 0 || call.Ellipsis.IsValid() {
		return "", nil, false
	}
	var lits []string
	for i, a := range call.Args {
		if i > 0 && i%2 == 0 {
			continue
		}
		b, ok := a.(*ast.BasicLit)
		if !ok || b.Kind != token.STRING {
			return "", nil, false
		}
		s, err := strconv.Unquote(b.Value)
		if err != nil {
			return "", nil, false
		}
		lits = append(lits, s)
	}
	params := slices.Sorted(slices.Values(lits[1:]))
	if params == nil {
		params = []string{}
	}
	return lits[0], params, true
}
