package call

// Talk bursts: a floor holder's burst starts with its recording and talk timer and ends with the recording
// indexed (durable before it is reported) and its measured figures published.

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tenfour/internal/media"
	"tenfour/internal/oplog"
	"tenfour/internal/platform/db"
	"tenfour/internal/platform/realtime"
)

// burst is the floor holder's talk: its media burst, recording and timers.
type burst struct {
	mb        *media.Burst
	talker    *client
	claim     *Claim
	btime     int64  // UTC ms of the grant, unique within the call
	path      string // relative to the data directory; "" if not recorded
	accessUs  int64
	maxTimer  *time.Timer
	emergency bool
	// notRecorded says why the burst is not recorded (rights.go): "" when it is.
	notRecorded string
}

// startBurstLocked gives the call's floor holder a burst: a recording, its media burst and the talk timer.
func (s *Service) startBurstLocked(later *afterUnlock, c *Call, claim *Claim) {
	if c.timer != nil && c.Kind == Group {
		c.timer.Stop()
		c.timer = nil
	}
	b := s.newBurstLocked(c, claim)
	c.burst = b
	s.relayStartedLocked(c, b) // in a cluster: the other nodes get it too (relay.go)
	media.MPressToGrant.Observe(b.mb.Granted.Sub(claim.At).Seconds())
	b.maxTimer = time.AfterFunc(s.opts.MaxTalkTime, func() { s.talkTimeUp(c, b) })
	if claim.Client.console && claim.Client.lastKW != "" && claim.Client.lastKW != c.Kind {
		later.log(c.Customer, claim.Client.acct, oplog.CallTypeSwitch, string(claim.Client.lastKW)+" → "+string(c.Kind),
			oplog.D("callTypeSwitch", "prevKind", string(claim.Client.lastKW), "callKind", string(c.Kind)))
	}
	claim.Client.lastKW = c.Kind
}

// newBurstLocked makes claim's burst in call c: its btime, recording verdict, recorder and media burst. The
// floor holder's (startBurstLocked) and an open line's (duplex.go) are made alike.
func (s *Service) newBurstLocked(c *Call, claim *Claim) *burst {
	now := time.Now()
	c.btime = max(now.UnixMilli(), c.btime+1) // two bursts of one call may start within a millisecond
	b := &burst{talker: claim.Client, claim: claim, emergency: s.emergency[claim.Account],
		accessUs: now.Sub(claim.At).Microseconds(), btime: c.btime}
	if !b.emergency { // an SOS terminal's talk is always recorded (docs/adr/0022)
		b.notRecorded = s.recordVerdict(c.Customer, claim.Client.acct)
	}
	rel := filepath.Join("recordings", strconv.FormatInt(c.Customer, 10), now.UTC().Format(dayDirs),
		burstKey(c.ID, b.btime)+".ogg")
	var rec *media.Recorder
	if s.opts.DataDir != "" && b.notRecorded == "" {
		rec, b.path = media.StartRecorder(filepath.Join(s.opts.DataDir, rel)), rel // a failure shows at Finish
		s.recording[rel] = true                                                    // until indexed: no orphan
	}
	if c.Kind == Group {
		c.joined[claim.Account] = true
	}
	b.mb = media.NewBurst(rec)
	b.mb.Granted = now
	return b
}

// endBurstLocked ends the holder's burst. With tail, packets already on their way still reach the listeners
// for ReleaseTail; the recording is finished and indexed after that, outside the lock.
func (s *Service) endBurstLocked(later *afterUnlock, c *Call, reason string, tail bool) {
	if b := c.burst; b != nil {
		c.burst = nil
		s.closeBurstLocked(later, c, b, reason, tail)
	}
}

// closeBurstLocked ends burst b of call c, no longer the call's (endBurstLocked, an open line's end).
func (s *Service) closeBurstLocked(later *afterUnlock, c *Call, b *burst, reason string, tail bool) {
	if b.maxTimer != nil { // an open line has no talk time
		b.maxTimer.Stop()
	}
	talker := b.talker
	// What finishing needs of the call is read now, under the lock.
	snap := burstEnd{allow: s.callAudienceFilter(c), peers: c.peerIDs(b.claim.Account), talkerName: c.talkerName(talker.acct)}
	finish := func() { s.finishBurst(c, b, reason, snap) }
	if tail && talker.peer != nil {
		talker.tailing = true
		s.wg.Add(1)
		time.AfterFunc(s.opts.ReleaseTail, func() {
			defer s.wg.Done()
			_ = s.locked(func(later *afterUnlock) error {
				talker.tailing = false
				s.recomputeLocked(c.Customer)
				return nil
			})
			finish()
		})
		return
	}
	s.wg.Add(1)
	later.Then(func() { go func() { defer s.wg.Done(); finish() }() })
}

// talkerName is how the call's records name a talker: a call to a phone number names the far end, who talks
// through the trunk's account, by the number dialled ("+4930123456 (Trunk)").
func (c *Call) talkerName(a Account) string {
	if c.Number != "" && a.ID != c.Initiator.ID {
		return c.Number + " (" + a.Name + ")"
	}
	return a.Name
}

// burstEnd is what finishing a burst needs of its call, read under the lock.
type burstEnd struct {
	allow      realtime.Audience
	peers      string
	talkerName string // the talker's account is replaced under the lock when it is refreshed
}

// finishBurst closes the recording, stores its row (durable before it is reported) and reports the burst. It
// runs outside the lock and reads only the call's fixed fields.
func (s *Service) finishBurst(c *Call, b *burst, reason string, snap burstEnd) {
	s.relayEnded(c, b)
	stats := b.mb.Stats()
	view := BurstStatsView{CallID: c.ID, MsID: b.claim.Account, BTime: b.btime,
		DurationMs: time.Since(b.mb.Granted).Milliseconds(), PressToGrantUs: b.accessUs,
		GrantToFirstUs: stats.FirstPacket.Microseconds(), DelayP50Us: stats.DelayP50.Microseconds(),
		DelayP99Us: stats.DelayP99.Microseconds(), Packets: stats.Packets, Reason: reason}
	if rec := b.mb.Recorder(); rec != nil {
		res, err := rec.Finish()
		if res.Skipped > 0 { // once per burst, however many (tenfour_voice_record_packets_skipped_total counts them)
			slog.Warn("voice: malformed packets left out of a recording", "call", c.ID, "talker", b.claim.Account,
				"skipped", res.Skipped, "kept", res.Packets)
		}
		switch {
		case err != nil:
			slog.Error("voice: finish recording", "call", c.ID, "err", err)
		case res.Packets > 0:
			view.DurationMs = int64(res.Samples) / 48
			r := Record{Customer: c.Customer, CallID: c.ID, Kind: c.Kind, GroupID: c.Group, GroupName: c.GroupName,
				PeerIDs: snap.peers, TalkerID: b.claim.Account, TalkerName: snap.talkerName,
				Started: view.BTime, DurationMs: view.DurationMs, Quality: string(res.Quality), Size: res.Size,
				Path: b.path, AccessUs: view.PressToGrantUs, FirstPacketUs: view.GrantToFirstUs, DelayP99Us: view.DelayP99Us}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			id, err := s.store.AddRecord(ctx, r)
			if err == nil {
				r.ID = id
				if err := s.useRecordingTime(ctx, c.Customer, r.DurationMs); err != nil {
					slog.Error("voice: count recording time", "call", c.ID, "err", err)
				}
				// The record is stored: an event the hub could not store too went out live; it is not kept for
				// indexing again (that would add the record twice).
				if _, err := s.hub.PublishDurable(ctx, c.Customer, "voice.recorded", recordView(r), realtime.Consoles); err != nil {
					slog.Error("voice: recorded event", "call", c.ID, "err", err)
				}
			}
			cancel()
			if err != nil {
				s.keepPending(r, err)
			}
		}
		s.mu.Lock()
		delete(s.recording, b.path) // indexed, kept for the next start, or removed
		s.mu.Unlock()
	}
	view.NotRecorded = b.notRecorded
	s.recordTalk(c, b, view.DurationMs)
	s.hub.Publish(c.Customer, "floor.stats", view, snap.allow)
}

// burstKey names a burst's recording: its call and btime (unique together).
func burstKey(callID string, btime int64) string { return callID + "-" + strconv.FormatInt(btime, 10) }

// peerIDs is what a record stores as the other parties of a burst.
func (c *Call) peerIDs(talker string) string {
	if c.Kind == Group {
		return ""
	}
	var ids []string
	for _, p := range c.parties {
		if p.ID != talker {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) > 20 {
		ids = ids[:20]
	}
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += ","
		}
		out += id
	}
	return out
}

// pendingDir holds the index rows of recordings that could not be stored yet, one JSON file each.
func (s *Service) pendingDir() string { return filepath.Join(s.opts.DataDir, "recordings", "pending") }

// keepPending writes a recording's row next to the recordings when the store refused it (PostgreSQL restarting
// or out of reach, shutdown), and offers it to the store again until it takes it (retryPending), or at the next
// start: a recording on disk is never left without its row.
func (s *Service) keepPending(r Record, cause error) {
	b, _ := json.Marshal(r)
	name := fmt.Sprintf("%d-%s.json", r.Customer, burstKey(r.CallID, r.Started))
	err := os.MkdirAll(s.pendingDir(), 0o750)
	if err == nil { // written whole, then named: indexPending never reads half a row
		tmp := filepath.Join(s.pendingDir(), name+".tmp")
		if err = os.WriteFile(tmp, b, 0o640); err == nil {
			err = os.Rename(tmp, filepath.Join(s.pendingDir(), name))
		}
	}
	if err != nil {
		slog.Error("voice: index recording", "call", r.CallID, "err", cause, "pending", err)
		return
	}
	slog.Warn("voice: recording kept for indexing once the store takes it", "call", r.CallID, "err", cause)
	s.retryPending()
}

// pendingRetry is how often the rows kept in recordings/pending are offered to the store again.
const pendingRetry = time.Second

// retryPending offers the rows kept in recordings/pending to the store every pendingRetry until it took them all,
// one loop at a time, ending when the service closes (the next start indexes what is left; Close waits for the
// loop). Without it a burst whose row the store refused had no record until the node's next start
// (docs/reliability.md, finding 7).
func (s *Service) retryPending() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept++
	if s.retrying || s.closed {
		return
	}
	s.retrying = true
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		tick := time.NewTicker(pendingRetry)
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
			case <-s.stop:
				return
			}
			s.mu.Lock()
			kept := s.kept
			s.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := s.indexPending(ctx)
			cancel()
			s.mu.Lock()
			// Done when every row was taken and none was kept meanwhile (it may have come after the folder was read).
			done := err == nil && kept == s.kept
			if done {
				s.retrying = false
			}
			s.mu.Unlock()
			if done {
				return
			}
			if err != nil {
				slog.Warn("voice: index kept recording rows", "err", err)
			}
		}
	}()
}

// indexPending stores the rows kept by keepPending.
func (s *Service) indexPending(ctx context.Context) error {
	entries, err := os.ReadDir(s.pendingDir())
	if os.IsNotExist(err) || s.opts.DataDir == "" {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue // a row being written (keepPending)
		}
		path := filepath.Join(s.pendingDir(), e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			slog.Error("voice: unreadable pending recording row", "file", path, "err", err)
			continue
		}
		if _, err := s.store.AddRecord(ctx, r); err != nil && !db.IsUniqueViolation(err) {
			return err
		}
		if err := os.Remove(path); err != nil {
			return err
		}
	}
	return nil
}
