package wire_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gzuidhof/tygo/tygo"
	"gopkg.in/yaml.v2"
)

// The committed wire types are what tygo writes from the Go structs now: a field renamed, added or retyped in a
// model.go without `make wire` fails here, before the console reads a shape the server no longer sends.
func TestWireTypesAreCurrent(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "tygo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg tygo.Config
	if err := yaml.UnmarshalStrict(raw, &cfg); err != nil {
		t.Fatalf("tygo.yaml: %v", err)
	}
	if len(cfg.Packages) == 0 {
		t.Fatal("tygo.yaml lists no package")
	}
	tmp := t.TempDir()
	committed := map[string]string{} // generated path → committed path
	for _, p := range cfg.Packages {
		gen := filepath.Join(tmp, filepath.Base(p.OutputPath))
		committed[gen] = filepath.Join(root, p.OutputPath)
		p.OutputPath = gen
	}
	t.Chdir(root) // tygo loads the packages of the module it runs in
	if err := tygo.New(&cfg).Generate(); err != nil {
		t.Fatal(err)
	}
	for gen, want := range committed {
		got, err := os.ReadFile(gen)
		if err != nil {
			t.Fatal(err)
		}
		have, err := os.ReadFile(want)
		if err != nil {
			t.Fatalf("%v: run `make wire`", err)
		}
		if !bytes.Equal(got, have) {
			t.Errorf("%s is stale: run `make wire` and commit what it writes", want)
		}
	}
}
