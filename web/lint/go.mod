// Not Go code: this file makes web/lint a module of its own, so that `go list ./...` (and with it vet, lint and
// the tests) does not walk into web/lint/node_modules, where an npm package ships a Go package of its own.
module tenfour-console-lint

go 1.26.8
