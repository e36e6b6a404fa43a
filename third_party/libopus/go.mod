// A module boundary of its own: `go list ./...` and `go vet ./...` of the server's module stop here, before
// node_modules (an npm package may ship Go files).
module tenfour/third_party/libopus

go 1.26.8
