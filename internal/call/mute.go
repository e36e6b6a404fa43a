package call

// The mute list (spec §6, account type "1"): kept in the store, applied to live routing at once.

import (
	"context"
	"errors"
	"strconv"
	"time"

	"tenfour/internal/platform/db"
	"tenfour/internal/platform/httpx"
	"tenfour/internal/platform/identity"
)

// ErrMuteSelf is a mute entry of an account for itself.
var ErrMuteSelf = httpx.BadParam("muteId", "an account cannot mute itself")

// muteAllowed: the mute list is for account type "1" only (spec §6).
func muteAllowed(p identity.Principal) error {
	if p.AcctType != "1" {
		return ErrPermission
	}
	return nil
}

// muteAddReq is the request of POST /ds/mute/add.
type muteAddReq struct {
	MsID   string `json:"msId"`
	MuteID string `json:"muteId"`
}

func (s *Service) muteAdd(ctx context.Context, p identity.Principal, req muteAddReq) (any, error) {
	if err := muteAllowed(p); err != nil {
		return nil, err
	}
	if req.MsID == "" {
		req.MsID = p.AccountID // the dispatcher's own mute list
	}
	if err := httpx.Required("muteId", req.MuteID); err != nil {
		return nil, err
	}
	if req.MsID == req.MuteID {
		return nil, ErrMuteSelf
	}
	accts, err := s.store.Accounts(ctx, p.CustomerID, []string{req.MsID, req.MuteID})
	if err != nil {
		return nil, err
	}
	if len(accts) != 2 {
		return nil, ErrNotFound
	}
	id, err := s.store.AddMute(ctx, p.CustomerID, req.MsID, req.MuteID, time.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	s.setMute(p.CustomerID, req.MsID, req.MuteID, true)
	return map[string]string{"id": strconv.FormatInt(id, 10)}, nil
}

// muteDeleteReq is the request of DELETE /ds/mute/delete.
type muteDeleteReq struct {
	ID     string `json:"id"`
	MsID   string `json:"msId"`
	MuteID string `json:"muteId"`
}

func (s *Service) muteDelete(ctx context.Context, p identity.Principal, req muteDeleteReq) (any, error) {
	if err := muteAllowed(p); err != nil {
		return nil, err
	}
	var id int64
	if req.ID != "" {
		var err error
		if id, err = httpx.Int("id", req.ID); err != nil {
			return nil, err
		}
	} else if req.MuteID == "" {
		return nil, httpx.BadParam("id", "id, or msId and muteId")
	} else if req.MsID == "" {
		req.MsID = p.AccountID
	}
	msID, muteID, err := s.store.DeleteMute(ctx, p.CustomerID, id, req.MsID, req.MuteID)
	if errors.Is(err, db.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	s.setMute(p.CustomerID, msID, muteID, false)
	return struct{}{}, nil
}

// muteListReq is the request of GET /ds/mute/list.
type muteListReq struct {
	MsID string `json:"msId"`
}

func (s *Service) muteList(ctx context.Context, p identity.Principal, req muteListReq) (any, error) {
	if err := muteAllowed(p); err != nil {
		return nil, err
	}
	list, err := s.store.Mutes(ctx, p.CustomerID, req.MsID)
	if err != nil {
		return nil, err
	}
	return map[string]any{"list": list}, nil
}

// setMute applies a mute-list change to live routing at once.
func (s *Service) setMute(customer int64, msID, muteID string, on bool) {
	_ = s.locked(func(later *afterUnlock) error {
		set := s.mutes[msID]
		if on {
			if set == nil {
				set = map[string]bool{}
				s.mutes[msID] = set
			}
			set[muteID] = true
		} else if set != nil {
			delete(set, muteID)
		}
		s.recomputeLocked(customer)
		return nil
	})
}
