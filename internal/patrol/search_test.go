package patrol_test

import (
	"net/http"
	"testing"
)

// Searching points and routes by name finds the text typed, `_`, `%` and `\` included: a `_` used to match any
// character and a `%` anything, so searching for "_" listed every point.
func TestSearchIsLiteral(t *testing.T) {
	eachEnv(t, func(t *testing.T, e *env) {
		a := e.area("Yard")
		for i, name := range []string{"North_Gate", "NorthXGate", "100% dock", "1000 dock", `back\door`, "backxdoor"} {
			var p struct{ ID int64 }
			e.ok(http.MethodPost, "tbPatrolPoint/add", map[string]any{"name": name, "nfcValue": name, "areaId": a, "lat": lat(i),
				"lng": 29.0}, &p)
			e.ok(http.MethodPost, "tbPatrolRoute/add", map[string]any{"name": "R " + name, "areaId": a, "routePoints": []any{p.ID}}, nil)
		}
		type page struct {
			Total int
			List  []struct{ Name string }
		}
		for _, c := range []struct{ search, want string }{
			{"_", "North_Gate"},
			{"h_g", "North_Gate"},
			{"%", "100% dock"},
			{"0%", "100% dock"},
			{`\`, `back\door`},
			{`K\D`, `back\door`}, // still case-insensitive
		} {
			for _, list := range []string{"tbPatrolPoint/list", "tbPatrolRoute/list"} {
				var got page
				e.ok(http.MethodGet, list, map[string]any{"name": c.search, "areaId": a}, &got)
				want := c.want
				if list == "tbPatrolRoute/list" {
					want = "R " + c.want
				}
				if got.Total != 1 || len(got.List) != 1 || got.List[0].Name != want {
					t.Errorf("%s name=%q: %+v, want only %q", list, c.search, got, want)
				}
			}
		}
	})
}
