package sim

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Account is one simulated terminal's login and what the simulator knows of it.
type Account struct {
	ID       string
	Password string
	Type     string // spec §3 type code; "" = from the fleet mix (MixType)
	City     string // "istanbul", "izmir"; "" = the fleet's city
	Hint     string // where it works (a group name such as "Harbor"), to pick its district
	// Resume, if set, is a resume token the terminal logs in with first instead of its password (the in-process
	// demo fleet gets them from its own server: no password check, so not counted by the sign-in throttle).
	Resume string
}

// DemoPassword is the password of every demo account (internal/demo).
const DemoPassword = "123456"

// demoRange mirrors a terminal range seeded by internal/demo (demo_test.go in this package checks the two
// against a seeded database, so they cannot drift apart silently).
type demoRange struct {
	from, to int
	typ      string
	hint     string
}

var demoTenants = []struct {
	base   int
	city   string
	ranges []demoRange
}{
	{base: 10000000, city: "istanbul", ranges: []demoRange{
		{101, 106, "6", "Patrol North"}, {107, 112, "6", "Patrol South"}, {113, 120, "0", "Maintenance"},
		{121, 125, "PMR", "Logistics"}, {126, 130, "DMR", "Logistics"}, {131, 133, "8", "Operations"},
		{134, 137, "505", "Emergency"}, {138, 142, "camera", "Cameras"}, {143, 149, "10", "Patrol"},
		{150, 157, "10", "Emergency"}, {158, 160, "20", "Console"}, {161, 176, "10", "Emergency"},
	}},
	{base: 20000000, city: "izmir", ranges: []demoRange{
		{101, 104, "6", "Harbor"}, {105, 106, "DMR", "Cranes harbor"}, {107, 110, "10", "Airport"},
		{111, 111, "505", "Airport"}, {112, 112, "camera", "Airport"},
	}},
}

// DemoAccounts are every demo terminal of `serve --demo` ("Demo Fleet" 10000101…10000160 around Istanbul, then
// "Second Tenant" 20000101…20000112 around Izmir), in that order; type 20 entries are dispatcher positions that
// sign in like a console. The dispatchers people use (10000001, 20000001) are not among them. The fleets run
// FleetAccounts: these but the ones left to people (DemoSpare).
func DemoAccounts() []Account {
	var out []Account
	for _, t := range demoTenants {
		for _, r := range t.ranges {
			for n := r.from; n <= r.to; n++ {
				out = append(out, Account{ID: strconv.Itoa(t.base + n), Password: DemoPassword, Type: r.typ,
					City: t.city, Hint: r.hint})
			}
		}
	}
	return out
}

// RangeAccounts are accounts first…first+count-1 sharing one password, typed by MixType.
func RangeAccounts(first, count int, password string) ([]Account, error) {
	if first < 10000000 || first+count-1 > 99999999 || count < 0 {
		return nil, fmt.Errorf("ids %d…%d are not 8-digit account numbers", first, first+count-1)
	}
	out := make([]Account, count)
	for i := range out {
		out[i] = Account{ID: strconv.Itoa(first + i), Password: password, Type: MixType(i)}
	}
	return out, nil
}

// ParseRange reads "30000001-30010000" (or one id) into its first id and count.
func ParseRange(s string) (first, count int, err error) {
	a, b, found := strings.Cut(strings.TrimSpace(s), "-")
	first, err = strconv.Atoi(strings.TrimSpace(a))
	if err != nil {
		return 0, 0, fmt.Errorf("id range %q: %w", s, err)
	}
	last := first
	if found {
		if last, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("id range %q: %w", s, err)
		}
	}
	if last < first {
		return 0, 0, fmt.Errorf("id range %q: the end is before the start", s)
	}
	return first, last - first + 1, nil
}

// ReadAccounts reads an accounts file: one terminal per line, `id,password[,type[,city[,hint]]]`; blank
// lines and lines starting with # are skipped.
func ReadAccounts(r io.Reader) ([]Account, error) {
	var out []Account
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		f := strings.Split(s, ",")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if len(f) < 2 || f[0] == "" || f[1] == "" {
			return nil, fmt.Errorf("line %d: want id,password[,type[,city[,hint]]]", line)
		}
		a := Account{ID: f[0], Password: f[1]}
		if len(f) > 2 {
			a.Type = f[2]
		}
		if len(f) > 3 {
			a.City = f[3]
		}
		if len(f) > 4 {
			a.Hint = f[4]
		}
		if a.Type == "" {
			a.Type = MixType(len(out))
		}
		out = append(out, a)
	}
	return out, sc.Err()
}

// ReadAccountsFile is ReadAccounts on a file.
func ReadAccountsFile(path string) ([]Account, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAccounts(f)
}
