// Command tenfour is the whole dispatch system in one binary: `serve`, `admin` (and `sim` for terminals).
package main

import (
	"fmt"
	"os"
)

const usage = `tenfour — push-to-talk dispatch server

Usage:
  tenfour serve [--addr HOST:PORT] [--data DIR] [--db postgres://…] [--demo] [--tls-self-signed | --tls-cert F --tls-key F]
  tenfour admin <command> [flags]   (tenfour admin help)
  tenfour sim --server URL --demo [--count N] [--duration D] [--seed S]   (tenfour sim --help)
  tenfour tiles info|demo FILE       the street map archive (tenfour tiles)

Every serve flag also reads TENFOUR_<FLAG> from the environment (e.g. TENFOUR_ADDR, TENFOUR_DB).
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "admin":
		err = admin(os.Args[2:])
	case "sim":
		err = simCmd(os.Args[2:])
	case "tiles":
		err = tilesCmd(os.Args[2:])
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "unknown command %q\n\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "tenfour:", err)
		os.Exit(1)
	}
}
