package sip_test

import (
	"context"
	"testing"
	"time"

	"github.com/emiago/sipgo/sip"
	"github.com/pion/sdp/v3"

	"tenfour/internal/testkit"
)

// reinvite sends the phone's re-INVITE with its stream's direction (body: the offer, nil for none) and ACKs a
// 200; it returns the status and the answer's direction.
func (p *softphone) reinvite(body []byte) (int, string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req := sip.NewRequest(sip.INVITE, p.dialog.InviteResponse.Contact().Address)
	if body != nil {
		req.SetBody(body)
		req.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	}
	res, err := p.dialog.Do(ctx, req)
	if err != nil {
		p.t.Fatalf("re-INVITE: %v", err)
	}
	if res.StatusCode != sip.StatusOK {
		return res.StatusCode, ""
	}
	// the ACK inside the dialog: the re-INVITE's CSeq number (the dialog does not count an ACK up)
	if err := p.dialog.WriteRequest(sip.NewRequest(sip.ACK, p.dialog.InviteResponse.Contact().Address)); err != nil {
		p.t.Fatal(err)
	}
	var sd sdp.SessionDescription
	if err := sd.Unmarshal(res.Body()); err != nil {
		p.t.Fatalf("the re-INVITE's answer: %v\n%s", err, res.Body())
	}
	for _, a := range sd.MediaDescriptions[0].Attributes {
		switch a.Key {
		case "sendrecv", "sendonly", "recvonly", "inactive":
			return res.StatusCode, a.Key
		}
	}
	return res.StatusCode, "sendrecv"
}

// A desk phone's hold and resume (re-INVITEs, RFC 3264 §8.4): held (sendonly, then inactive with the phone
// silent longer than the RTP timeout) it hears nothing of the group and keeps its call; resumed it hears the group
// again. A session refresh without an offer is answered with the call's media; an offer without the call's
// codec is 488 and changes nothing; a re-INVITE of a call that does not exist is 481.
func TestReinviteHoldAndResume(t *testing.T) {
	ctx, w, gid := callWorld(t, "sqlite", 90*time.Second)
	if res := w.register(t, phoneClient(t), "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
		t.Fatalf("REGISTER: %d", res.StatusCode)
	}
	term := w.groupTerminal(ctx, t)
	p := newSoftphone(t, w)
	if code := p.call(gid); code != sip.StatusOK {
		t.Fatalf("INVITE: %d", code)
	}

	if code, dir := p.reinvite(p.offerWith("sendonly")); code != sip.StatusOK || dir != "recvonly" {
		t.Fatalf("hold (sendonly): %d %q, want 200 recvonly", code, dir)
	}
	mark := p.heardCount()
	if _, err := term.RequestFloor(ctx, "", gid, false); err != nil {
		t.Fatal(err)
	}
	if _, err := term.PlayOgg(ctx, toneOgg(t), 1); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if n := p.heardCount() - mark; n > 0 {
		t.Fatalf("on hold the phone was sent %d frames", n)
	}
	if err := term.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}

	// inactive, and silent for longer than the 10 s without RTP that ends a call
	if code, dir := p.reinvite(p.offerWith("inactive")); code != sip.StatusOK || dir != "inactive" {
		t.Fatalf("hold (inactive): %d %q, want 200 inactive", code, dir)
	}
	p.mu.Lock()
	p.paused = true
	p.mu.Unlock()
	time.Sleep(11 * time.Second)
	p.mu.Lock()
	p.paused = false
	p.mu.Unlock()

	if code, _ := p.reinvite([]byte("v=0\r\no=phone 1 2 IN IP4 127.0.0.1\r\ns=call\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 4000 RTP/AVP 9\r\n")); code != sip.StatusNotAcceptableHere {
		t.Fatalf("an offer without the call's codec: %d, want 488", code)
	}
	if code, dir := p.reinvite(nil); code != sip.StatusOK || dir != "inactive" {
		t.Fatalf("a refresh without an offer: %d %q, want 200 with the call's media as it is (inactive)", code, dir)
	}
	if code, dir := p.reinvite(p.offerWith("sendrecv")); code != sip.StatusOK || dir != "sendrecv" {
		t.Fatalf("resume: %d %q, want 200 sendrecv", code, dir)
	}
	p.hearGroup(ctx, term, gid) // the call lived through the hold: the phone hears the group again

	// a re-INVITE of no call of this node
	req := sip.NewRequest(sip.INVITE, sip.Uri{User: gid, Host: w.host, Port: w.port})
	to := sip.NewParams()
	to.Add("tag", "no-such-dialog")
	req.AppendHeader(&sip.ToHeader{Address: sip.Uri{User: gid, Host: w.host}, Params: to})
	req.SetTransport("UDP")
	res, err := p.c.Do(ctx, req)
	if err != nil || res.StatusCode != sip.StatusCallTransactionDoesNotExists {
		t.Fatalf("a re-INVITE of no call: %v %v, want 481", res, err)
	}
}
