// Package wire holds the check that the console's generated wire types (web/src/shared/wire, from tygo.yaml at
// the repository's root) are what the Go structs answer today. It has no code of its own: `make wire` writes the
// files with tygo (a tool of go.mod), and this package's test writes them again into a temporary folder and
// compares (docs/adr/0035).
package wire
