package sip

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/emiago/sipgo"
	"github.com/emiago/sipgo/sip"
	"github.com/pion/rtp"
)

// Outbound is a call a trunk placed to a number: its dialog with the far end and its media, G.711 in 20 ms RTP
// frames (plain RTP: a trunk's media stays on the operator's network to the PBX). What carries it — the console's
// dialpad through a dispatcher's session — writes the frames it says and reads those it hears.
type Outbound struct {
	d     *sipgo.DialogClientSession
	media *rtpSession
}

// dialEvents is the telephone-event payload type a trunk's offer names (the far end's keys).
const dialEvents = 101

// Dial calls number through the trunk — sip:number@registrar, through the outbound proxy when there is one —
// offering PCMU with telephone-event and answering the PBX's digest challenge with the trunk's credentials. It
// returns once the far end answers; a refusal is an error naming its status (*sipgo.ErrDialogResponse).
func (t *Trunk) Dial(ctx context.Context, number string) (*Outbound, error) {
	o, err := t.inviteOut(ctx, number, false)
	if err != nil {
		return nil, err
	}
	if err := o.d.WaitAnswer(ctx, t.auth()); err != nil {
		o.close()
		return nil, err
	}
	if err := o.answered(ctx); err != nil {
		_ = o.Hangup(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("sip: trunk %s: dial %s: %w", t.cfg.Name, number, err)
	}
	t.log.InfoContext(ctx, "sip: trunk: dialled", "number", number)
	return o, nil
}

// inviteOut sends the INVITE of a call to number through the trunk (Dial; an individual call's, dialnumber.go) with
// its offer on a new RTP socket — PCMU, or with opus Opus first as to a phone (the far end's answer picks: an Opus
// answer is carried without transcoding) — the answer is the caller's to wait for (with auth), then answered.
func (t *Trunk) inviteOut(ctx context.Context, number string, opus bool) (*Outbound, error) {
	if err := t.prepare(); err != nil {
		return nil, err
	}
	_, local := t.client()
	media, err := listenRTP(offer{pt: ptPCMU, codec: Ulaw, events: dialEvents}, local)
	if err != nil {
		return nil, err
	}
	var body []byte
	if opus {
		body, err = media.offerOpusFirst()
	} else {
		body, err = media.answer() // the offer: the same stream an answer of this side has
	}
	if err != nil {
		media.close()
		return nil, err
	}
	host, port := t.domain()
	req := t.request(sip.INVITE, sip.Uri{User: number, Host: host, Port: port}, sip.Uri{User: number, Host: host}, local)
	req.SetBody(body)
	req.AppendHeader(sip.NewHeader("Content-Type", "application/sdp"))
	d, err := t.dialogs.WriteInvite(ctx, req)
	if err != nil {
		media.close()
		return nil, err
	}
	return &Outbound{d: d, media: media}, nil
}

// auth answers the PBX's challenge to the trunk's INVITE with the trunk's credentials.
func (t *Trunk) auth() sipgo.AnswerOptions {
	return sipgo.AnswerOptions{Username: t.cfg.Username, Password: t.cfg.Password}
}

// answered takes the far end's answer (PCMU: the only audio offered) and ACKs it.
func (o *Outbound) answered(ctx context.Context) error {
	answer, err := parseOffer(o.d.InviteResponse.Body())
	if err == nil && answer.pt != ptPCMU {
		err = errors.New("the answer is not PCMU")
	}
	if err == nil {
		err = o.d.Ack(ctx)
	}
	if err == nil {
		o.media.remote, o.media.events = answer.remote, answer.events
	}
	return err
}

// Write sends one 20 ms PCMU frame (160 bytes) to the far end; not concurrently.
func (o *Outbound) Write(frame []byte) error { return o.media.write(frame) }

// Read waits at most timeout for the far end's next RTP packet.
func (o *Outbound) Read(p *rtp.Packet, buf []byte, timeout time.Duration) error {
	return o.media.read(p, buf, timeout)
}

// trunkBye takes a BYE of a call a trunk placed (false: none of theirs).
func (s *Server) trunkBye(req *sip.Request, tx sip.ServerTransaction) bool {
	s.trunks.mu.Lock()
	var list []*Trunk
	for _, t := range s.trunks.live {
		list = append(list, t)
	}
	s.trunks.mu.Unlock()
	for _, t := range list {
		t.mu.Lock()
		dialogs := t.dialogs
		t.mu.Unlock()
		if dialogs != nil && dialogs.ReadBye(req, tx) == nil {
			return true
		}
	}
	return false
}

// Done ends when the call does: the far end's BYE or Hangup.
func (o *Outbound) Done() <-chan struct{} { return o.d.Context().Done() }

// Hangup says BYE (unless the far end did) and closes the media.
func (o *Outbound) Hangup(ctx context.Context) error {
	var err error
	if o.d.Context().Err() == nil {
		bctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = o.d.Bye(bctx)
		cancel()
	}
	o.close()
	return err
}

func (o *Outbound) close() {
	_ = o.d.Close()
	_ = o.media.close()
}
