package directory_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"tenfour/internal/directory"
	"tenfour/internal/testkit"
)

// scenario is one API call and what it must answer. Refused calls (code ≠ "0") must leave the store as it was.
type scenario struct {
	name   string
	method string
	path   string
	tok    string // "A" Alpha's dispatcher, "B" Bravo's, "" none, anything else used as is
	params map[string]any
	status int
	code   string
	check  func(t *testing.T, r testkit.Reply)
}

func run(t *testing.T, s *testkit.Server, tokA, tokB string, list []scenario) {
	t.Helper()
	for _, sc := range list {
		t.Run(sc.name, func(t *testing.T) {
			tok := sc.tok
			switch tok {
			case "A":
				tok = tokA
			case "B":
				tok = tokB
			}
			before := snapshot(t, s.DB)
			r := s.Do(sc.method, sc.path, tok, sc.params)
			if r.Code != sc.code || r.Status != sc.status {
				t.Fatalf("%s %s: got %d code %q (%s), want %d code %q", sc.method, sc.path, r.Status, r.Code, r.Msg, sc.status, sc.code)
			}
			if sc.code != "0" {
				if after := snapshot(t, s.DB); after != before {
					t.Fatalf("refused call changed the store:\n%s---\n%s", before, after)
				}
			}
			if sc.check != nil {
				sc.check(t, r)
			}
		})
	}
}

// tree decodes getGrpMsList's normal form.
func tree(t *testing.T, r testkit.Reply) []*directory.Group {
	t.Helper()
	var res struct {
		Groups []*directory.Group `json:"groups"`
	}
	r.Into(t, &res)
	return res.Groups
}

func long(n int) string { return strings.Repeat("x", n) }

func TestDirectoryAPI(t *testing.T) {
	s, w, tokA, tokB := apiWorld(t)
	// 25 more Alpha accounts without groups, for paging.
	for i := 1; i <= 25; i++ {
		newAccount(t, s.DB, w.alpha, fmt.Sprintf("110002%02d", i), "10", fmt.Sprintf("Bulk %02d", i))
	}
	bigList := make([]string, directory.MaxListIDs+1)
	for i := range bigList {
		bigList[i] = fmt.Sprintf("1%07d", i)
	}
	gid := func(g directory.GroupID) string { return g.String() }

	run(t, s, tokA, tokB, []scenario{
		// getGrpMsList
		{name: "tree needs a token", method: "GET", path: "/ds/data/getGrpMsList", status: 401, code: "105"},
		{name: "tree with a bad token", method: "GET", path: "/ds/data/getGrpMsList", tok: "nope", status: 401, code: "105"},
		{name: "tree", method: "GET", path: "/ds/data/getGrpMsList", tok: "A", status: 200, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				gs := tree(t, r)
				if len(gs) != 3 || gs[0].GID != w.aOps || gs[0].Children[0].GID != w.aSub || gs[0].Children[0].Deep != 2 {
					t.Fatalf("tree %s", r.Result)
				}
				if len(gs[0].LastGpsList) != 0 || len(gs[0].MsList) != 3 || gs[0].MsList[1].CID != aRadio {
					t.Fatalf("members %s", r.Result)
				}
				if !strings.Contains(string(r.Result), `"gid":"`+gid(w.aOps)+`"`) || !strings.Contains(string(r.Result), `"fid":"0"`) {
					t.Fatalf("ids must be strings: %s", r.Result)
				}
			}},
		{name: "tree with last GPS", method: "GET", path: "/ds/data/getGrpMsList", tok: "A", params: map[string]any{"lastGps": 1},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				gs := tree(t, r)
				if len(gs[0].LastGpsList) != 2 || gs[0].LastGpsList[1].Mid != aApp || gs[0].LastGpsList[1].Lng != 28.98 {
					t.Fatalf("lastGpsList %+v", gs[0].LastGpsList)
				}
			}},
		{name: "tree compressed", method: "GET", path: "/ds/data/getGrpMsList", tok: "A",
			params: map[string]any{"isCompress": 1, "lastGps": "true"}, status: 200, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var res struct {
					Cols    []string `json:"cols"`
					GpsCols []string `json:"gpsCols"`
					Groups  []struct {
						GID      string            `json:"gid"`
						Ms       [][]any           `json:"ms"`
						Gps      [][]any           `json:"gps"`
						Children []json.RawMessage `json:"children"`
					} `json:"groups"`
				}
				r.Into(t, &res)
				if res.Cols[0] != "cid" || len(res.GpsCols) != 4 || len(res.Groups) != 3 || len(res.Groups[0].Children) != 1 {
					t.Fatalf("compact %s", r.Result)
				}
				row := res.Groups[0].Ms[1]
				if len(row) != len(res.Cols) || row[0] != aRadio || row[slices.Index(res.Cols, "type")] != "6" ||
					row[slices.Index(res.Cols, "lat")] != 41.01 {
					t.Fatalf("row %v", row)
				}
				if len(res.Groups[0].Gps) != 2 || res.Groups[0].Gps[0][0] != aRadio {
					t.Fatalf("gps %v", res.Groups[0].Gps)
				}
			}},
		{name: "tree bad isCompress", method: "GET", path: "/ds/data/getGrpMsList", tok: "A", params: map[string]any{"isCompress": "yes"}, status: 400, code: "400"},
		{name: "tree bad lastGps", method: "GET", path: "/ds/data/getGrpMsList", tok: "A", params: map[string]any{"lastGps": 2}, status: 400, code: "400"},
		{name: "tree repeated isCompress", method: "GET", path: "/ds/data/getGrpMsList?isCompress=1&isCompress=0", tok: "A", status: 400, code: "400"},

		// getLastGps
		{name: "last gps needs a token", method: "GET", path: "/ds/data/getLastGps", status: 401, code: "105"},
		{name: "last gps", method: "GET", path: "/ds/data/getLastGps", tok: "A", status: 200, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var res []directory.LastGPS
				r.Into(t, &res)
				if len(res) != 2 || res[0].Mid != aRadio || res[0].Lat != 41.01 || res[1].Mid != aApp {
					t.Fatalf("%s", r.Result)
				}
			}},

		// findMsInfo
		{name: "find", method: "GET", path: "/ds/data/findMsInfo", tok: "A", params: map[string]any{"msId": aApp}, status: 200, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var m map[string]any
				r.Into(t, &m)
				for _, k := range []string{"cid", "name", "type", "online", "grp", "lat", "lng", "speed", "battery", "signal", "model",
					"lastGps", "callSetStatus", "avatar", "lastOnline", "lastOffline"} {
					if _, ok := m[k]; !ok {
						t.Fatalf("terminal lacks %s: %s", k, r.Result)
					}
				}
				if m["cid"] != aApp || m["online"] != "0" || m["grp"] != gid(w.aOps) || m["callSetStatus"] != 8.0 {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "find missing msId", method: "GET", path: "/ds/data/findMsInfo", tok: "A", status: 400, code: "400"},
		{name: "find oversized msId", method: "GET", path: "/ds/data/findMsInfo", tok: "A", params: map[string]any{"msId": long(33)}, status: 400, code: "400"},
		{name: "find repeated msId", method: "GET", path: "/ds/data/findMsInfo?msId=1&msId=2", tok: "A", status: 400, code: "400"},
		{name: "find unknown", method: "GET", path: "/ds/data/findMsInfo", tok: "A", params: map[string]any{"msId": unknown}, status: 404, code: "404"},
		{name: "find other tenant's", method: "GET", path: "/ds/data/findMsInfo", tok: "A", params: map[string]any{"msId": bRadio}, status: 404, code: "404"},

		// updateMsInfo
		{name: "version", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"cid": aRadio, "ver": "2.4.1"},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				var m directory.Terminal
				r.Into(t, &m)
				if m.Ver != "2.4.1" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "version numeric cid", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"cid": 11000101, "ver": 3}, status: 200, code: "0"},
		{name: "version missing cid", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"ver": "1"}, status: 400, code: "400"},
		{name: "version missing ver", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"cid": aRadio}, status: 400, code: "400"},
		{name: "version oversized", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"cid": aRadio, "ver": long(65)}, status: 400, code: "400"},
		{name: "version wrong type", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"cid": aRadio, "ver": map[string]any{"a": 1}}, status: 400, code: "400"},
		{name: "version unknown", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"cid": unknown, "ver": "1"}, status: 404, code: "404"},
		{name: "version other tenant's", method: "PUT", path: "/ds/data/updateMsInfo", tok: "A", params: map[string]any{"cid": bRadio, "ver": "1"}, status: 404, code: "404"},
		{name: "version needs a token", method: "PUT", path: "/ds/data/updateMsInfo", params: map[string]any{"cid": aRadio, "ver": "1"}, status: 401, code: "105"},

		// updateGroupName
		{name: "rename group", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.aEmpty), "name": "  Spare  "}, status: 200, code: "0"},
		{name: "rename group to existing", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.aEmpty), "name": "Alpha Ops"}, status: 409, code: "21"},
		{name: "rename group empty", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.aEmpty), "name": "  "}, status: 400, code: "20"},
		{name: "rename group missing name", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.aEmpty)}, status: 400, code: "20"},
		{name: "rename group too long", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.aEmpty), "name": strings.Repeat("ğ", 33)}, status: 400, code: "22"},
		{name: "rename group control chars", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.aEmpty), "name": "a\x07b"}, status: 400, code: "10"},
		{name: "rename group bad gid", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": "abc", "name": "x"}, status: 400, code: "400"},
		{name: "rename group root gid", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": "0", "name": "x"}, status: 400, code: "400"},
		{name: "rename group missing gid", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"name": "x"}, status: 400, code: "400"},
		{name: "rename group unknown", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": "999999", "name": "x"}, status: 404, code: "404"},
		{name: "rename group other tenant's", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.bOps), "name": "x"}, status: 404, code: "404"},
		{name: "rename temp group via nms", method: "PUT", path: "/ds/nms/updateGroupName", tok: "A", params: map[string]any{"gid": gid(w.aTmp), "name": "x"}, status: 404, code: "404"},

		// updateTerminalName
		{name: "rename terminal", method: "PUT", path: "/ds/nms/updateTerminalName", tok: "A", params: map[string]any{"msId": aCam, "msName": "Gate Cam"},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				var m directory.Terminal
				r.Into(t, &m)
				if m.Name != "Gate Cam" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "rename terminal empty", method: "PUT", path: "/ds/nms/updateTerminalName", tok: "A", params: map[string]any{"msId": aCam, "msName": ""}, status: 400, code: "20"},
		{name: "rename terminal too long", method: "PUT", path: "/ds/nms/updateTerminalName", tok: "A", params: map[string]any{"msId": aCam, "msName": long(33)}, status: 400, code: "22"},
		{name: "rename terminal missing msId", method: "PUT", path: "/ds/nms/updateTerminalName", tok: "A", params: map[string]any{"msName": "x"}, status: 400, code: "400"},
		{name: "rename terminal wrong type", method: "PUT", path: "/ds/nms/updateTerminalName", tok: "A", params: map[string]any{"msId": []string{aCam}, "msName": "x"}, status: 400, code: "400"},
		{name: "rename terminal unknown", method: "PUT", path: "/ds/nms/updateTerminalName", tok: "A", params: map[string]any{"msId": unknown, "msName": "x"}, status: 404, code: "404"},
		{name: "rename terminal other tenant's", method: "PUT", path: "/ds/nms/updateTerminalName", tok: "A", params: map[string]any{"msId": bRadio, "msName": "x"}, status: 404, code: "404"},

		// addGroup
		{name: "add root group", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "Night Shift"},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				var g directory.Group
				r.Into(t, &g)
				if g.Name != "Night Shift" || g.FID != 0 || g.Deep != 1 || g.SeqNum != 3 || g.Kind != "fixed" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "add child group", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "Sub Two", "fid": gid(w.aOps)},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				var g directory.Group
				r.Into(t, &g)
				if g.FID != w.aOps || g.Deep != 2 || g.SeqNum != 2 {
					t.Fatalf("%s", r.Result)
				}
			}},
		{name: "add form body", method: "POST", path: "/ds/nms/addGroup?name=Query+Named", tok: "A", status: 200, code: "0"},
		{name: "add existing name", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "Alpha Sub"}, status: 409, code: "21"},
		{name: "add missing name", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"fid": "0"}, status: 400, code: "20"},
		{name: "add too long", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": long(33)}, status: 400, code: "22"},
		{name: "add bad fid", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "x", "fid": "-1"}, status: 400, code: "400"},
		{name: "add unknown fid", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "x", "fid": "999999"}, status: 404, code: "404"},
		{name: "add under other tenant's", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "x", "fid": gid(w.bOps)}, status: 404, code: "404"},
		{name: "add under temp group", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "x", "fid": gid(w.aTmp)}, status: 404, code: "404"},
		{name: "add malformed body", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: nil, status: 400, code: "20"},

		// saveGroupMs
		{name: "save moves", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": aCam, "groupId": gid(w.aEmpty)},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				r2 := s.Do("GET", "/ds/data/findMsInfo", tokA, map[string]any{"msId": aCam})
				var m directory.Terminal
				r2.Into(t, &m)
				if m.Grp != gid(w.aEmpty) {
					t.Fatalf("grp %q", m.Grp)
				}
			}},
		{name: "save keeps, list as comma string", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A",
			params: map[string]any{"msId": aLoose + "," + aRadio, "groupId": gid(w.aEmpty), "keepOldGrp": "1", "pttGrp": "0", "diffClient": "0"}, status: 200, code: "0"},
		{name: "save list as array, ptt", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A",
			params: map[string]any{"msId": []string{aRadio}, "groupId": gid(w.aSub), "keepOldGrp": 1, "pttGrp": 1}, status: 200, code: "0"},
		{name: "save other tenant's terminal", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": []string{aRadio, bRadio}, "groupId": gid(w.aOps)}, status: 404, code: "404"},
		{name: "save into other tenant's group", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": aRadio, "groupId": gid(w.bOps)}, status: 404, code: "404"},
		{name: "save unknown terminal", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": unknown, "groupId": gid(w.aOps)}, status: 404, code: "404"},
		{name: "save into temp group", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": aCam, "groupId": gid(w.aTmp)}, status: 404, code: "404"},
		{name: "save across clients", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": aCam, "groupId": gid(w.aOps), "diffClient": "1"}, status: 403, code: "107"},
		{name: "save missing msId", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"groupId": gid(w.aOps)}, status: 400, code: "400"},
		{name: "save missing groupId", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": aCam}, status: 400, code: "400"},
		{name: "save too many", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": bigList, "groupId": gid(w.aOps)}, status: 400, code: "400"},
		{name: "save bad flag", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": aCam, "groupId": gid(w.aOps), "keepOldGrp": "maybe"}, status: 400, code: "400"},
		{name: "save oversized id", method: "POST", path: "/ds/nms/saveGroupMs", tok: "A", params: map[string]any{"msId": long(40), "groupId": gid(w.aOps)}, status: 400, code: "400"},

		// removeGroupMs
		{name: "remove member", method: "POST", path: "/ds/nms/removeGroupMs", tok: "A", params: map[string]any{"msId": aLoose, "groupId": gid(w.aEmpty)}, status: 200, code: "0"},
		{name: "remove non-member", method: "POST", path: "/ds/nms/removeGroupMs", tok: "A", params: map[string]any{"msId": aLoose, "groupId": gid(w.aEmpty)}, status: 409, code: "24"},
		{name: "remove other tenant's", method: "POST", path: "/ds/nms/removeGroupMs", tok: "A", params: map[string]any{"msId": bRadio, "groupId": gid(w.bOps)}, status: 404, code: "404"},
		{name: "remove missing", method: "POST", path: "/ds/nms/removeGroupMs", tok: "A", params: map[string]any{"groupId": gid(w.aOps)}, status: 400, code: "400"},

		// deleteGroup
		{name: "delete non-empty", method: "POST", path: "/ds/nms/deleteGroup", tok: "A", params: map[string]any{"gid": gid(w.aOps)}, status: 409, code: "23"},
		{name: "delete other tenant's", method: "POST", path: "/ds/nms/deleteGroup", tok: "A", params: map[string]any{"gid": gid(w.bOps)}, status: 404, code: "404"},
		{name: "delete temp via nms", method: "POST", path: "/ds/nms/deleteGroup", tok: "A", params: map[string]any{"gid": gid(w.aTmp)}, status: 404, code: "404"},
		{name: "delete unknown", method: "POST", path: "/ds/nms/deleteGroup", tok: "A", params: map[string]any{"gid": "424242"}, status: 404, code: "404"},
		{name: "delete bad gid", method: "POST", path: "/ds/nms/deleteGroup", tok: "A", params: map[string]any{"gid": "1.5"}, status: 400, code: "400"},
		{name: "delete empty", method: "POST", path: "/ds/nms/addGroup", tok: "A", params: map[string]any{"name": "Doomed"}, status: 200, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var g directory.Group
				r.Into(t, &g)
				if d := s.Do("POST", "/ds/nms/deleteGroup", tokA, map[string]any{"gid": g.GID.String()}); d.Code != "0" {
					t.Fatalf("delete: %+v", d)
				}
				if d := s.Do("POST", "/ds/nms/deleteGroup", tokA, map[string]any{"gid": g.GID.String()}); d.Code != "404" {
					t.Fatalf("delete again: %+v", d)
				}
			}},

		// getTerminalByClient
		{name: "terminals default page", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", status: 200, code: "0",
			check: func(t *testing.T, r testkit.Reply) {
				var res struct {
					Total    int                  `json:"total"`
					PageSize int                  `json:"pageSize"`
					List     []directory.Terminal `json:"list"`
				}
				r.Into(t, &res)
				if res.Total != 30 || res.PageSize != 20 || len(res.List) != 20 || res.List[0].CID != aDisp {
					t.Fatalf("total %d size %d len %d", res.Total, res.PageSize, len(res.List))
				}
			}},
		{name: "terminals page 2", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"pageNo": 2, "pageSize": 25},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				var res struct {
					List []directory.Terminal `json:"list"`
				}
				r.Into(t, &res)
				if len(res.List) != 5 || res.List[4].CID != "11000225" {
					t.Fatalf("%d", len(res.List))
				}
			}},
		{name: "terminals by name", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"name": "bulk 1"},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				var res struct{ Total int }
				r.Into(t, &res)
				if res.Total != 10 {
					t.Fatalf("total %d", res.Total)
				}
			}},
		{name: "terminals by type and online", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"type": "camera", "online": 0},
			status: 200, code: "0", check: func(t *testing.T, r testkit.Reply) {
				var res struct{ Total int }
				r.Into(t, &res)
				if res.Total != 1 {
					t.Fatalf("total %d", res.Total)
				}
			}},
		{name: "terminals pageSize 0", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"pageSize": 0}, status: 400, code: "400"},
		{name: "terminals pageSize huge", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"pageSize": 1001}, status: 400, code: "400"},
		{name: "terminals pageNo 0", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"pageNo": 0}, status: 400, code: "400"},
		{name: "terminals pageNo text", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"pageNo": "two"}, status: 400, code: "400"},
		{name: "terminals name too long", method: "GET", path: "/ds/nms/getTerminalByClient", tok: "A", params: map[string]any{"name": long(65)}, status: 400, code: "400"},
		{name: "terminals needs a token", method: "GET", path: "/ds/nms/getTerminalByClient", status: 401, code: "105"},
	})
}

// The body limit of the shared decoder applies to every directory mutation.
func TestDirectoryAPIBodyLimit(t *testing.T) {
	s, _, tokA, _ := apiWorld(t)
	req, _ := http.NewRequest("POST", s.URL+"/ds/nms/addGroup", strings.NewReader(`{"name":"`+long(2<<20)+`"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("token", tokA)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env struct{ Code string }
	_ = json.NewDecoder(res.Body).Decode(&env)
	if res.StatusCode != http.StatusRequestEntityTooLarge || env.Code != "413" {
		t.Fatalf("got %d %q", res.StatusCode, env.Code)
	}
}
