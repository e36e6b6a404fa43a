package directory_test

import (
	"strings"
	"testing"

	"tenfour/internal/testkit"
)

// The tenancy test: a dispatcher of customer Alpha reads nothing of customer Bravo over HTTP (every directory
// endpoint) or the socket (requests with Bravo's ids fail; none of Bravo's events arrive), and changes nothing
// of Bravo's.
func TestTenancy(t *testing.T) {
	s, w, tokA, tokB := apiWorld(t)
	bravoMarks := []string{"Bravo", bDisp, bRadio, bLoose}
	for _, g := range []string{w.bOps.String(), w.bTmp.String()} {
		bravoMarks = append(bravoMarks, `"gid":"`+g+`"`, `"fid":"`+g+`"`, `"grp":"`+g+`"`)
	}
	leaks := func(body string) string {
		for _, m := range bravoMarks {
			if strings.Contains(body, m) {
				return m
			}
		}
		return ""
	}

	t.Run("http reads", func(t *testing.T) {
		for _, c := range []struct {
			path   string
			params map[string]any
		}{
			{"/ds/data/getGrpMsList", nil},
			{"/ds/data/getGrpMsList", map[string]any{"lastGps": 1}},
			{"/ds/data/getGrpMsList", map[string]any{"isCompress": 1, "lastGps": 1}},
			{"/ds/data/getLastGps", nil},
			{"/ds/nms/getTerminalByClient", map[string]any{"pageSize": 1000}},
			{"/ds/nms/getTerminalByClient", map[string]any{"name": "Bravo"}},
			{"/ds/nms/getTerminalByClient", map[string]any{"name": "2200"}},
		} {
			r := s.Do("GET", c.path, tokA, c.params)
			if r.Code != "0" {
				t.Fatalf("%s: %+v", c.path, r)
			}
			if m := leaks(string(r.Result)); m != "" {
				t.Errorf("%s %v shows Bravo's %s", c.path, c.params, m)
			}
			// The same call by Bravo does show Bravo's data (the check above can fail).
			if r := s.Do("GET", c.path, tokB, c.params); !strings.Contains(string(r.Result), bRadio) &&
				!strings.Contains(c.path, "getTerminalByClient") {
				t.Errorf("%s as Bravo lacks Bravo's terminal: %s", c.path, r.Result)
			}
		}
	})

	t.Run("http ids of the other tenant", func(t *testing.T) {
		before := snapshot(t, s.DB)
		bOps, bTmp := w.bOps.String(), w.bTmp.String()
		for _, c := range []struct {
			method, path string
			params       map[string]any
		}{
			{"GET", "/ds/data/findMsInfo", map[string]any{"msId": bRadio}},
			{"GET", "/ds/data/findMsInfo", map[string]any{"msId": bDisp}},
			{"PUT", "/ds/data/updateMsInfo", map[string]any{"cid": bRadio, "ver": "9"}},
			{"PUT", "/ds/nms/updateGroupName", map[string]any{"gid": bOps, "name": "Taken"}},
			{"PUT", "/ds/nms/updateGroupName", map[string]any{"gid": bTmp, "name": "Taken"}},
			{"PUT", "/ds/nms/updateTerminalName", map[string]any{"msId": bRadio, "msName": "Taken"}},
			{"POST", "/ds/nms/addGroup", map[string]any{"name": "Inside Bravo", "fid": bOps}},
			{"POST", "/ds/nms/saveGroupMs", map[string]any{"msId": bLoose, "groupId": bOps}},
			{"POST", "/ds/nms/saveGroupMs", map[string]any{"msId": bLoose, "groupId": w.aOps.String()}},
			{"POST", "/ds/nms/saveGroupMs", map[string]any{"msId": aLoose, "groupId": bOps}},
			{"POST", "/ds/nms/removeGroupMs", map[string]any{"msId": bRadio, "groupId": bOps}},
			{"POST", "/ds/nms/deleteGroup", map[string]any{"gid": bOps}},
			{"POST", "/ds/nms/deleteGroup", map[string]any{"gid": bTmp}},
		} {
			r := s.Do(c.method, c.path, tokA, c.params)
			if r.Code != "404" || r.Status != 404 {
				t.Errorf("%s %s %v: got %d %q, want 404", c.method, c.path, c.params, r.Status, r.Code)
			}
			if m := leaks(r.Msg + string(r.Result)); m != "" {
				t.Errorf("%s %s error shows %s", c.method, c.path, m)
			}
		}
		if after := snapshot(t, s.DB); after != before {
			t.Fatalf("calls with Bravo's ids changed the store:\n%s---\n%s", before, after)
		}
	})

	t.Run("socket", func(t *testing.T) {
		consA := consoleSocket(t, s, tokA)
		consB := consoleSocket(t, s, tokB)
		before := snapshot(t, s.DB)
		for _, c := range []struct {
			typ     string
			payload map[string]any
		}{
			{"group.switch", map[string]any{"gid": w.bOps}},
			{"group.switch", map[string]any{"gid": w.aOps, "msId": bRadio}},
			{"group.switch", map[string]any{"gid": w.bOps, "msId": bRadio}},
			{"tempGroup.create", map[string]any{"name": "Spy", "msIds": []string{bRadio}}},
			{"tempGroup.edit", map[string]any{"gid": w.bTmp, "name": "Spy"}},
			{"tempGroup.edit", map[string]any{"gid": w.aTmp, "add": []string{bLoose}}},
			{"tempGroup.delMember", map[string]any{"gid": w.bTmp, "msId": bRadio}},
			{"tempGroup.remove", map[string]any{"gid": w.bTmp}},
		} {
			if r := consA.Call(c.typ, c.payload); r.Code != "404" {
				t.Errorf("%s %v: got %q, want 404", c.typ, c.payload, r.Code)
			}
		}
		if after := snapshot(t, s.DB); after != before {
			t.Fatalf("socket requests with Bravo's ids changed the store:\n%s---\n%s", before, after)
		}
		r := consA.Call("tempGroup.query", nil)
		if m := leaks(string(r.Data)); r.Code != "0" || m != "" {
			t.Errorf("tempGroup.query shows %s: %s", m, r.Data)
		}

		// Bravo is busy: a terminal comes online, a temp group, a switch, renames. Bravo's console sees it all.
		radioB := terminalSocket(t, s, bRadio)
		consB.WaitEvent("presence", wait, msIs(bRadio))
		if r := consB.Call("tempGroup.create", map[string]any{"name": "Bravo Team", "msIds": []string{bRadio, bLoose}}); r.Code != "0" {
			t.Fatalf("Bravo create %+v", r)
		}
		consB.WaitEvent("tempGroup.changed", wait, nil)
		if r := consB.Call("group.switch", map[string]any{"gid": w.bTmp}); r.Code != "0" {
			t.Fatalf("Bravo switch %+v", r)
		}
		consB.WaitEvent("member.switched", wait, nil)
		if r := s.Do("PUT", "/ds/nms/updateGroupName", tokB, map[string]any{"gid": w.bOps.String(), "name": "Bravo Renamed"}); r.Code != "0" {
			t.Fatalf("Bravo rename %+v", r)
		}
		consB.WaitEvent("group.changed", wait, nil)
		if r := s.Do("PUT", "/ds/nms/updateTerminalName", tokB, map[string]any{"msId": bRadio, "msName": "Bravo Radio 2"}); r.Code != "0" {
			t.Fatalf("Bravo rename terminal %+v", r)
		}
		consB.WaitEvent("terminal.updated", wait, nil)
		radioB.Close()
		consB.WaitEvent("presence", wait, func(f testkit.Frame) bool { return msIs(bRadio)(f) && strings.Contains(string(f.Data), `"online":"0"`) })

		// Everything published for Bravo was queued before Bravo's console received it, so a round trip of
		// Alpha's console now would carry any leaked event ahead of its reply.
		consA.Call("ping", nil)
		for _, f := range consA.Events {
			if m := leaks(string(f.Data)); m != "" {
				t.Errorf("Alpha's console received Bravo's %s event: %s", f.Type, f.Data)
			}
		}
	})
}
