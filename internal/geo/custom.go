package geo

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
	"tenfour/internal/platform/realtime"
)

// Group colours and terminal icons are how groups and terminals look on the map (spec §2 map tools); they
// are stored on the directory's rows (ptt_groups.color, accounts.avatar and accounts.map_icon).

// MaxImageLen bounds a terminal icon image: a URL or a data: URL of a small picture.
const MaxImageLen = 64 << 10

var iconKeyRe = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// updateGrpColor: {gid, color} — color "#rgb", "#rrggbb" or "#rrggbbaa"; empty resets to the default.
// Consoles get `group.changed {gid}` (and refetch the tree, as for any group change).
func (s *Service) updateGrpColor(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		GID   string  `json:"gid"`
		Color *string `json:"color"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	p := identity.Must(r.Context())
	gids, err := numIDs("gid", []string{req.GID}, true)
	if err != nil {
		return nil, err
	}
	if req.Color == nil {
		return nil, httpx.BadParam("color", "required")
	}
	color, err := checkColor(*req.Color)
	if err != nil {
		return nil, err
	}
	res, err := s.db.Exec(r.Context(), `UPDATE ptt_groups SET color = ? WHERE id = ? AND customer_id = ?`,
		color, gids[0], p.CustomerID)
	if err := mustAffect(res, err); err != nil {
		return nil, err
	}
	gid := strconv.FormatInt(gids[0], 10)
	s.hub.Publish(p.CustomerID, "group.changed", map[string]string{"gid": gid}, realtime.Consoles)
	return map[string]string{"gid": gid, "color": color}, nil
}

// updateMsIcon: {msId (one or a list), icon, image} — spec §5 "avatar setting needs icon and image": icon is
// the icon's key (letters, digits, _ . -), image its picture (an http(s) URL, a path on this server, or a
// data:image URL up to 64 KiB). The image becomes the terminal's avatar.
func (s *Service) updateMsIcon(w http.ResponseWriter, r *http.Request) (any, error) {
	var req struct {
		MsID  httpx.List `json:"msId"`
		Icon  string     `json:"icon"`
		Image string     `json:"image"`
	}
	if err := httpx.Decode(r, &req); err != nil {
		return nil, err
	}
	ctx := r.Context()
	p := identity.Must(ctx)
	ids, err := checkIDs("msId", req.MsID, true)
	if err != nil {
		return nil, err
	}
	icon := strings.TrimSpace(req.Icon)
	if !iconKeyRe.MatchString(icon) {
		return nil, httpx.BadParam("icon", "required: letters, digits, _ . - (at most 64)")
	}
	image := strings.TrimSpace(req.Image)
	if err := checkImage(image); err != nil {
		return nil, err
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := terminals(ctx, tx, p.CustomerID, ids); err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.Exec(ctx, `UPDATE accounts SET avatar = ?, map_icon = ? WHERE id = ? AND customer_id = ?`,
				image, icon, id, p.CustomerID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		s.terminalChanged(ctx, p.CustomerID, id, image)
	}
	return map[string]any{"msIds": ids, "icon": icon, "image": image}, nil
}

func checkImage(v string) error {
	switch {
	case v == "":
		return httpx.BadParam("image", "required")
	case len(v) > MaxImageLen:
		return httpx.BadParam("image", "too large")
	case strings.HasPrefix(v, "data:image/"):
		return nil
	case strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//"):
		return nil
	}
	if _, err := CheckLink(v); err != nil {
		return httpx.BadParam("image", "an http(s) URL, a path or a data:image URL")
	}
	return nil
}

// terminalChanged tells consoles a terminal's look changed: through the directory (full `terminal.updated`)
// when OnTerminalChanged is wired, else with a partial `terminal.updated {cid, avatar}`.
func (s *Service) terminalChanged(ctx context.Context, customer int64, id, avatar string) {
	if s.OnTerminalChanged != nil && s.OnTerminalChanged(ctx, customer, id) == nil {
		return
	}
	s.hub.Publish(customer, "terminal.updated", map[string]string{"cid": id, "avatar": avatar}, realtime.Consoles)
}
