package sip_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/emiago/sipgo/sip"
	"github.com/pion/sdp/v3"

	sipside "tenfour/internal/sip"
	"tenfour/internal/termclient"
	"tenfour/internal/testkit"
)

// reinvite sends the phone's re-INVITE with its stream's direction (body: the offer, nil for none) and ACKs a
// 200; it returns the status and the answer's direction.
func (p *softphone) reinvite(body []byte) (int, string) {
	p.t.Helper()
	code, sd := p.reinviteAnswer(body)
	if sd == nil {
		return code, ""
	}
	for _, a := range sd.MediaDescriptions[0].Attributes {
		switch a.Key {
		case "sendrecv", "sendonly", "recvonly", "inactive":
			return code, a.Key
		}
	}
	return code, "sendrecv"
}

// reinviteFormats is reinvite, returning the answer's payload types instead.
func (p *softphone) reinviteFormats(body []byte) (int, []string) {
	p.t.Helper()
	code, sd := p.reinviteAnswer(body)
	if sd == nil {
		return code, nil
	}
	return code, sd.MediaDescriptions[0].MediaName.Formats
}

// reinviteAnswer sends the re-INVITE and ACKs a 200: its status and answer (nil unless 200).
func (p *softphone) reinviteAnswer(body []byte) (int, *sdp.SessionDescription) {
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
		return res.StatusCode, nil
	}
	// the ACK inside the dialog: the re-INVITE's CSeq number (the dialog does not count an ACK up)
	if err := p.dialog.WriteRequest(sip.NewRequest(sip.ACK, p.dialog.InviteResponse.Contact().Address)); err != nil {
		p.t.Fatal(err)
	}
	var sd sdp.SessionDescription
	if err := sd.Unmarshal(res.Body()); err != nil {
		p.t.Fatalf("the re-INVITE's answer: %v\n%s", err, res.Body())
	}
	return res.StatusCode, &sd
}

// groupCall is a registered softphone in a call into its group, with a terminal of the group, on SQLite.
func groupCall(t *testing.T, within time.Duration) (context.Context, *sipWorld, string, *termclient.Client, *softphone) {
	t.Helper()
	ctx, w, gid := callWorld(t, "sqlite", within)
	if res := w.register(t, phoneClient(t), "UDP", phone, testkit.Password, 300); res.StatusCode != sip.StatusOK {
		t.Fatalf("REGISTER: %d", res.StatusCode)
	}
	term := w.groupTerminal(ctx, t)
	p := newSoftphone(t, w)
	if code := p.call(gid); code != sip.StatusOK {
		t.Fatalf("INVITE: %d", code)
	}
	return ctx, w, gid, term, p
}

// A desk phone's hold and resume (re-INVITEs, RFC 3264 §8.4): held (sendonly, then inactive with the phone
// silent longer than the RTP timeout) it hears nothing of the group and keeps its call; resumed it hears the group
// again. A session refresh without an offer is answered with the call's media; an offer with no codec this side
// has is 488 and changes nothing; a re-INVITE of a call that does not exist is 481.
func TestReinviteHoldAndResume(t *testing.T) {
	ctx, w, gid, term, p := groupCall(t, 90*time.Second)

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

// A re-INVITE that moves a call to another codec (RFC 3264 §8.3.2): a phone that called in PCMU offers only PCMA;
// the answer is PCMA, the group's talk reaches the phone in A-law and the phone's A-law talk reaches the group,
// its talk keys working as before. An offer with no codec this side has (G.722 alone) is 488 and the call keeps
// PCMA.
func TestReinviteChangesCodec(t *testing.T) {
	ctx, _, gid, term, p := groupCall(t, 60*time.Second)

	port := p.rtp.LocalAddr().(*net.UDPAddr).Port
	pcma := fmt.Appendf(nil, "v=0\r\no=phone 1 2 IN IP4 127.0.0.1\r\ns=call\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"+
		"m=audio %d RTP/AVP 8 101\r\na=rtpmap:8 PCMA/8000\r\na=rtpmap:101 telephone-event/8000\r\na=sendrecv\r\n", port)
	code, formats := p.reinviteFormats(pcma)
	if code != sip.StatusOK || len(formats) == 0 || formats[0] != "8" {
		t.Fatalf("a re-INVITE with PCMA only: %d %v, want 200 with PCMA", code, formats)
	}
	p.mu.Lock()
	p.law = sipside.Alaw
	p.mu.Unlock()

	p.hearGroup(ctx, term, gid) // loud in A-law
	if err := term.ReleaseFloor(ctx, ""); err != nil {
		t.Fatal(err)
	}
	floorTalker(ctx, t, term, gid, "")
	p.press('*')
	floorTalker(ctx, t, term, gid, phone)
	p.talkToGroup(ctx, term)

	g722 := fmt.Appendf(nil, "v=0\r\no=phone 1 3 IN IP4 127.0.0.1\r\ns=call\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio %d RTP/AVP 9\r\n", port)
	if code, _ := p.reinviteFormats(g722); code != sip.StatusNotAcceptableHere {
		t.Fatalf("an offer of G.722 alone: %d, want 488", code)
	}
	if code, formats := p.reinviteFormats(nil); code != sip.StatusOK || formats[0] != "8" {
		t.Fatalf("a refresh after the 488: %d %v, want 200 with PCMA still", code, formats)
	}
}
