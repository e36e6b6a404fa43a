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

// terminalWith checks that a reply is a terminal for which ok holds.
func terminalWith(ok func(directory.Terminal) bool) func(*testing.T, testkit.Reply) {
	return func(t *testing.T, r testkit.Reply) {
		t.Helper()
		var m directory.Terminal
		r.Into(t, &m)
		if !ok(m) {
			t.Fatalf("%s", r.Result)
		}
	}
}

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

	testkit.APITest{Server: s, Token: aliases(tokA, tokB), State: directoryState}.Run(t, []testkit.Scenario{
		// getGrpMsList
		{Name: "tree needs a token", Method: "GET", Path: "/ds/data/getGrpMsList", Status: 401, Code: "105"},
		{Name: "tree with a bad token", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "nope", Status: 401, Code: "105"},
		{Name: "tree", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "A", Status: 200, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
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
		{Name: "tree with last GPS", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "A", Params: map[string]any{"lastGps": 1},
			Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				gs := tree(t, r)
				if len(gs[0].LastGpsList) != 2 || gs[0].LastGpsList[1].Mid != aApp || gs[0].LastGpsList[1].Lng != 28.98 {
					t.Fatalf("lastGpsList %+v", gs[0].LastGpsList)
				}
			}},
		{Name: "tree compressed", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "A",
			Params: map[string]any{"isCompress": 1, "lastGps": "true"}, Status: 200, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
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
		{Name: "tree bad isCompress", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "A", Params: map[string]any{"isCompress": "yes"}, Status: 400, Code: "400"},
		{Name: "tree bad lastGps", Method: "GET", Path: "/ds/data/getGrpMsList", Token: "A", Params: map[string]any{"lastGps": 2}, Status: 400, Code: "400"},
		{Name: "tree repeated isCompress", Method: "GET", Path: "/ds/data/getGrpMsList?isCompress=1&isCompress=0", Token: "A", Status: 400, Code: "400"},

		// getLastGps
		{Name: "last gps needs a token", Method: "GET", Path: "/ds/data/getLastGps", Status: 401, Code: "105"},
		{Name: "last gps", Method: "GET", Path: "/ds/data/getLastGps", Token: "A", Status: 200, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
				var res []directory.LastGPS
				r.Into(t, &res)
				if len(res) != 2 || res[0].Mid != aRadio || res[0].Lat != 41.01 || res[1].Mid != aApp {
					t.Fatalf("%s", r.Result)
				}
			}},

		// findMsInfo
		{Name: "find", Method: "GET", Path: "/ds/data/findMsInfo", Token: "A", Params: map[string]any{"msId": aApp}, Status: 200, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
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
		{Name: "find missing msId", Method: "GET", Path: "/ds/data/findMsInfo", Token: "A", Status: 400, Code: "400"},
		{Name: "find oversized msId", Method: "GET", Path: "/ds/data/findMsInfo", Token: "A", Params: map[string]any{"msId": long(33)}, Status: 400, Code: "400"},
		{Name: "find repeated msId", Method: "GET", Path: "/ds/data/findMsInfo?msId=1&msId=2", Token: "A", Status: 400, Code: "400"},
		{Name: "find unknown", Method: "GET", Path: "/ds/data/findMsInfo", Token: "A", Params: map[string]any{"msId": unknown}, Status: 404, Code: "404"},
		{Name: "find other tenant's", Method: "GET", Path: "/ds/data/findMsInfo", Token: "A", Params: map[string]any{"msId": bRadio}, Status: 404, Code: "404"},

		// updateMsInfo
		{Name: "version", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"cid": aRadio, "ver": "2.4.1"},
			Status: 200, Code: "0", Check: terminalWith(func(m directory.Terminal) bool { return m.Ver == "2.4.1" })},
		{Name: "version numeric cid", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"cid": 11000101, "ver": 3}, Status: 200, Code: "0"},
		{Name: "version missing cid", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"ver": "1"}, Status: 400, Code: "400"},
		{Name: "version missing ver", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"cid": aRadio}, Status: 400, Code: "400"},
		{Name: "version oversized", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"cid": aRadio, "ver": long(65)}, Status: 400, Code: "400"},
		{Name: "version wrong type", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"cid": aRadio, "ver": map[string]any{"a": 1}}, Status: 400, Code: "400"},
		{Name: "version unknown", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"cid": unknown, "ver": "1"}, Status: 404, Code: "404"},
		{Name: "version other tenant's", Method: "PUT", Path: "/ds/data/updateMsInfo", Token: "A", Params: map[string]any{"cid": bRadio, "ver": "1"}, Status: 404, Code: "404"},
		{Name: "version needs a token", Method: "PUT", Path: "/ds/data/updateMsInfo", Params: map[string]any{"cid": aRadio, "ver": "1"}, Status: 401, Code: "105"},

		// updateGroupName
		{Name: "rename group", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.aEmpty), "name": "  Spare  "}, Status: 200, Code: "0"},
		{Name: "rename group to existing", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.aEmpty), "name": "Alpha Ops"}, Status: 409, Code: "21"},
		{Name: "rename group empty", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.aEmpty), "name": "  "}, Status: 400, Code: "20"},
		{Name: "rename group missing name", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.aEmpty)}, Status: 400, Code: "20"},
		{Name: "rename group too long", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.aEmpty), "name": strings.Repeat("ğ", 33)}, Status: 400, Code: "22"},
		{Name: "rename group control chars", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.aEmpty), "name": "a\x07b"}, Status: 400, Code: "10"},
		{Name: "rename group bad gid", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": "abc", "name": "x"}, Status: 400, Code: "400"},
		{Name: "rename group root gid", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": "0", "name": "x"}, Status: 400, Code: "400"},
		{Name: "rename group missing gid", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"name": "x"}, Status: 400, Code: "400"},
		{Name: "rename group unknown", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": "999999", "name": "x"}, Status: 404, Code: "404"},
		{Name: "rename group other tenant's", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.bOps), "name": "x"}, Status: 404, Code: "404"},
		{Name: "rename temp group via nms", Method: "PUT", Path: "/ds/nms/updateGroupName", Token: "A", Params: map[string]any{"gid": gid(w.aTmp), "name": "x"}, Status: 404, Code: "404"},

		// updateTerminalName
		{Name: "rename terminal", Method: "PUT", Path: "/ds/nms/updateTerminalName", Token: "A", Params: map[string]any{"msId": aCam, "msName": "Gate Cam"},
			Status: 200, Code: "0", Check: terminalWith(func(m directory.Terminal) bool { return m.Name == "Gate Cam" })},
		{Name: "rename terminal empty", Method: "PUT", Path: "/ds/nms/updateTerminalName", Token: "A", Params: map[string]any{"msId": aCam, "msName": ""}, Status: 400, Code: "20"},
		{Name: "rename terminal too long", Method: "PUT", Path: "/ds/nms/updateTerminalName", Token: "A", Params: map[string]any{"msId": aCam, "msName": long(33)}, Status: 400, Code: "22"},
		{Name: "rename terminal missing msId", Method: "PUT", Path: "/ds/nms/updateTerminalName", Token: "A", Params: map[string]any{"msName": "x"}, Status: 400, Code: "400"},
		{Name: "rename terminal wrong type", Method: "PUT", Path: "/ds/nms/updateTerminalName", Token: "A", Params: map[string]any{"msId": []string{aCam}, "msName": "x"}, Status: 400, Code: "400"},
		{Name: "rename terminal unknown", Method: "PUT", Path: "/ds/nms/updateTerminalName", Token: "A", Params: map[string]any{"msId": unknown, "msName": "x"}, Status: 404, Code: "404"},
		{Name: "rename terminal other tenant's", Method: "PUT", Path: "/ds/nms/updateTerminalName", Token: "A", Params: map[string]any{"msId": bRadio, "msName": "x"}, Status: 404, Code: "404"},

		// addGroup
		{Name: "add root group", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "Night Shift"},
			Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var g directory.Group
				r.Into(t, &g)
				if g.Name != "Night Shift" || g.FID != 0 || g.Deep != 1 || g.SeqNum != 3 || g.Kind != "fixed" {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "add child group", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "Sub Two", "fid": gid(w.aOps)},
			Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var g directory.Group
				r.Into(t, &g)
				if g.FID != w.aOps || g.Deep != 2 || g.SeqNum != 2 {
					t.Fatalf("%s", r.Result)
				}
			}},
		{Name: "add form body", Method: "POST", Path: "/ds/nms/addGroup?name=Query+Named", Token: "A", Status: 200, Code: "0"},
		{Name: "add existing name", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "Alpha Sub"}, Status: 409, Code: "21"},
		{Name: "add missing name", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"fid": "0"}, Status: 400, Code: "20"},
		{Name: "add too long", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": long(33)}, Status: 400, Code: "22"},
		{Name: "add bad fid", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "x", "fid": "-1"}, Status: 400, Code: "400"},
		{Name: "add unknown fid", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "x", "fid": "999999"}, Status: 404, Code: "404"},
		{Name: "add under other tenant's", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "x", "fid": gid(w.bOps)}, Status: 404, Code: "404"},
		{Name: "add under temp group", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "x", "fid": gid(w.aTmp)}, Status: 404, Code: "404"},
		{Name: "add malformed body", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: nil, Status: 400, Code: "20"},

		// saveGroupMs
		{Name: "save moves", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": aCam, "groupId": gid(w.aEmpty)},
			Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				r2 := s.Do("GET", "/ds/data/findMsInfo", tokA, map[string]any{"msId": aCam})
				var m directory.Terminal
				r2.Into(t, &m)
				if m.Grp != gid(w.aEmpty) {
					t.Fatalf("grp %q", m.Grp)
				}
			}},
		{Name: "save keeps, list as comma string", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A",
			Params: map[string]any{"msId": aLoose + "," + aRadio, "groupId": gid(w.aEmpty), "keepOldGrp": "1", "pttGrp": "0", "diffClient": "0"}, Status: 200, Code: "0"},
		{Name: "save list as array, ptt", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A",
			Params: map[string]any{"msId": []string{aRadio}, "groupId": gid(w.aSub), "keepOldGrp": 1, "pttGrp": 1}, Status: 200, Code: "0"},
		{Name: "save other tenant's terminal", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": []string{aRadio, bRadio}, "groupId": gid(w.aOps)}, Status: 404, Code: "404"},
		{Name: "save into other tenant's group", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": aRadio, "groupId": gid(w.bOps)}, Status: 404, Code: "404"},
		{Name: "save unknown terminal", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": unknown, "groupId": gid(w.aOps)}, Status: 404, Code: "404"},
		{Name: "save into temp group", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": aCam, "groupId": gid(w.aTmp)}, Status: 404, Code: "404"},
		{Name: "save across clients", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": aCam, "groupId": gid(w.aOps), "diffClient": "1"}, Status: 403, Code: "107",
			// spec §8 "Terminal add 107: customer does not exist": its own text, not "no permission".
			Msg: "customer does not exist", Contains: []string{`"key":"dispatch.errors.customerMissing"`}},
		{Name: "save missing msId", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"groupId": gid(w.aOps)}, Status: 400, Code: "400"},
		{Name: "save missing groupId", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": aCam}, Status: 400, Code: "400"},
		{Name: "save too many", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": bigList, "groupId": gid(w.aOps)}, Status: 400, Code: "400"},
		{Name: "save bad flag", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": aCam, "groupId": gid(w.aOps), "keepOldGrp": "maybe"}, Status: 400, Code: "400"},
		{Name: "save oversized id", Method: "POST", Path: "/ds/nms/saveGroupMs", Token: "A", Params: map[string]any{"msId": long(40), "groupId": gid(w.aOps)}, Status: 400, Code: "400"},

		// removeGroupMs
		{Name: "remove member", Method: "POST", Path: "/ds/nms/removeGroupMs", Token: "A", Params: map[string]any{"msId": aLoose, "groupId": gid(w.aEmpty)}, Status: 200, Code: "0"},
		{Name: "remove non-member", Method: "POST", Path: "/ds/nms/removeGroupMs", Token: "A", Params: map[string]any{"msId": aLoose, "groupId": gid(w.aEmpty)}, Status: 409, Code: "24"},
		{Name: "remove other tenant's", Method: "POST", Path: "/ds/nms/removeGroupMs", Token: "A", Params: map[string]any{"msId": bRadio, "groupId": gid(w.bOps)}, Status: 404, Code: "404"},
		{Name: "remove missing", Method: "POST", Path: "/ds/nms/removeGroupMs", Token: "A", Params: map[string]any{"groupId": gid(w.aOps)}, Status: 400, Code: "400"},

		// deleteGroup
		{Name: "delete non-empty", Method: "POST", Path: "/ds/nms/deleteGroup", Token: "A", Params: map[string]any{"gid": gid(w.aOps)}, Status: 409, Code: "23"},
		{Name: "delete other tenant's", Method: "POST", Path: "/ds/nms/deleteGroup", Token: "A", Params: map[string]any{"gid": gid(w.bOps)}, Status: 404, Code: "404"},
		{Name: "delete temp via nms", Method: "POST", Path: "/ds/nms/deleteGroup", Token: "A", Params: map[string]any{"gid": gid(w.aTmp)}, Status: 404, Code: "404"},
		{Name: "delete unknown", Method: "POST", Path: "/ds/nms/deleteGroup", Token: "A", Params: map[string]any{"gid": "424242"}, Status: 404, Code: "404"},
		{Name: "delete bad gid", Method: "POST", Path: "/ds/nms/deleteGroup", Token: "A", Params: map[string]any{"gid": "1.5"}, Status: 400, Code: "400"},
		{Name: "delete empty", Method: "POST", Path: "/ds/nms/addGroup", Token: "A", Params: map[string]any{"name": "Doomed"}, Status: 200, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
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
		{Name: "terminals default page", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Status: 200, Code: "0",
			Check: func(t *testing.T, r testkit.Reply) {
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
		{Name: "terminals page 2", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"pageNo": 2, "pageSize": 25},
			Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var res struct {
					List []directory.Terminal `json:"list"`
				}
				r.Into(t, &res)
				if len(res.List) != 5 || res.List[4].CID != "11000225" {
					t.Fatalf("%d", len(res.List))
				}
			}},
		{Name: "terminals by name", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"name": "bulk 1"},
			Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var res struct{ Total int }
				r.Into(t, &res)
				if res.Total != 10 {
					t.Fatalf("total %d", res.Total)
				}
			}},
		{Name: "terminals by type and online", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"type": "camera", "online": 0},
			Status: 200, Code: "0", Check: func(t *testing.T, r testkit.Reply) {
				var res struct{ Total int }
				r.Into(t, &res)
				if res.Total != 1 {
					t.Fatalf("total %d", res.Total)
				}
			}},
		{Name: "terminals pageSize 0", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"pageSize": 0}, Status: 400, Code: "400"},
		{Name: "terminals pageSize huge", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"pageSize": 1001}, Status: 400, Code: "400"},
		{Name: "terminals pageNo 0", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"pageNo": 0}, Status: 400, Code: "400"},
		{Name: "terminals pageNo text", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"pageNo": "two"}, Status: 400, Code: "400"},
		{Name: "terminals name too long", Method: "GET", Path: "/ds/nms/getTerminalByClient", Token: "A", Params: map[string]any{"name": long(65)}, Status: 400, Code: "400"},
		{Name: "terminals needs a token", Method: "GET", Path: "/ds/nms/getTerminalByClient", Status: 401, Code: "105"},
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
