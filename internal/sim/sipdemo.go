package sim

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"
)

// SIPTalker is one simulated SIP phone of a demo: a desk phone talks with its keys (* and #), a radio gateway
// (Gateway) offers none and talks by voice activity.
type SIPTalker struct {
	ID      string
	Gateway bool
}

// SIPTalkOptions drive RunSIPTalkers.
type SIPTalkOptions struct {
	Server   string // the SIP address (host:port, UDP)
	Password string
	Talkers  []SIPTalker
	// Group is the group a talker calls (its default group's id, as the console shows it).
	Group func(ctx context.Context, id string) (string, error)
	Every time.Duration // about how often each talker talks (randomised ±50 %); default a minute
	Log   *slog.Logger
}

// RunSIPTalkers keeps each talker registered and, now and then, has it call its group and talk: a desk phone
// presses *, says two seconds of a tone (G.711) and presses #; a gateway says the tone (its voice takes the
// floor) and falls silent (the silence frees it); then it hangs up. So a dispatcher sees and hears the demo's SIP
// phones. The talkers take turns, as people on one channel listen before they talk: one waiting for its call
// while another is in its own. Without that, two talkers whose calls last the same time collide again on every
// round and one of them is refused the floor for good. It returns when ctx ends.
func RunSIPTalkers(ctx context.Context, o SIPTalkOptions) {
	if o.Every <= 0 {
		o.Every = time.Minute
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	done := make(chan struct{})
	turn := make(chan struct{}, 1) // held by the talker in its call
	for _, t := range o.Talkers {
		go func() {
			defer func() { done <- struct{}{} }()
			talkLoop(ctx, o, t, turn)
		}()
	}
	for range o.Talkers {
		<-done
	}
}

func talkLoop(ctx context.Context, o SIPTalkOptions, t SIPTalker, turn chan struct{}) {
	var phone *SIPPhone
	var registered time.Time
	defer func() {
		if phone != nil {
			phone.Close()
		}
	}()
	for {
		wait := time.Duration(float64(o.Every) * (0.5 + rand.Float64()))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return
		}
		if phone == nil || time.Since(registered) > 30*time.Minute { // registrations last an hour
			if phone != nil {
				phone.Close()
			}
			var err error
			// a desk phone answers the calls it is offered (a dispatcher calling it hears a phone pick up)
			so := SIPPhoneOptions{ID: t.ID, Password: o.Password, Server: o.Server, Gateway: t.Gateway, Answer: !t.Gateway}
			if phone, err = RegisterSIPPhone(ctx, so); err != nil {
				o.Log.Info("sim: SIP phone did not register", "msId", t.ID, "err", err)
				continue
			}
			registered = time.Now()
		}
		if phone.InCall() { // in a call it answered: its turn comes again later
			continue
		}
		select {
		case turn <- struct{}{}:
		case <-ctx.Done():
			return
		}
		err := talkOnce(ctx, o, t, phone)
		<-turn
		if err != nil && ctx.Err() == nil {
			o.Log.Info("sim: SIP phone's call", "msId", t.ID, "err", err)
		}
	}
}

// talkOnce is one call of a talker into its group: the floor taken, two seconds of tone, the floor freed.
func talkOnce(ctx context.Context, o SIPTalkOptions, t SIPTalker, phone *SIPPhone) error {
	gid, err := o.Group(ctx, t.ID)
	if err != nil {
		return err
	}
	if err := phone.Call(ctx, gid); err != nil {
		return err
	}
	pause := func(d time.Duration) {
		select {
		case <-time.After(d):
		case <-ctx.Done():
		}
	}
	pause(time.Second)
	if !t.Gateway {
		phone.Press('*')
		pause(300 * time.Millisecond)
	}
	phone.Talk(ToneFrames(660, 2*time.Second))
	pause(2200 * time.Millisecond)
	if !t.Gateway {
		phone.Press('#')
	}
	pause(1500 * time.Millisecond) // a gateway's silence frees the floor (the hangover)
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	return phone.HangUp(hctx)
}
