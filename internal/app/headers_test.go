package app

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// The console's CSP lets MapLibre reach every tile server the console's providers name: a provider added to
// web/src/map/providers.ts without its host here would show a blank map under the CSP.
func TestCSPCoversTheMapProviders(t *testing.T) {
	src, err := os.ReadFile("../../web/src/map/providers.ts")
	if err != nil {
		t.Fatal(err)
	}
	hosts := regexp.MustCompile(`'https://([^/']+)/`).FindAllStringSubmatch(string(src), -1)
	if len(hosts) < 3 {
		t.Fatalf("found %d provider templates in providers.ts", len(hosts))
	}
	csp := contentSecurityPolicy("console.example")
	for _, m := range hosts {
		host := strings.NewReplacer("{s}", "1").Replace(m[1])
		covered := false
		for _, allowed := range TileHosts {
			if ok, _ := path.Match(strings.TrimPrefix(allowed, "https://"), host); ok {
				covered = true
			}
		}
		if !covered {
			t.Errorf("tile host %s is not in TileHosts", host)
		}
	}
	for _, allowed := range TileHosts {
		if !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, allowed) {
			t.Errorf("CSP %q lacks %s", csp, allowed)
		}
	}
}
