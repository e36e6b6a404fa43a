package message_test

import (
	"context"
	"errors"
	"testing"

	"tenfour/internal/directory"
	"tenfour/internal/message"
	"tenfour/internal/platform/db"
	"tenfour/internal/testkit"
)

// The message store behaves the same on every engine: status on create, the unread rule per dispatcher,
// read marking (all or nothing across customers), conversations and the report counts.
func TestStoreContract(t *testing.T) {
	testkit.EachStore(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		st := message.NewStore(d, directory.NewStore(d))
		a, b := testkit.NewFleet(t, d, "1", 2, 1), testkit.NewFleet(t, d, "2", 1, 1)
		d2 := "10000002"
		testkit.Provision(t, d, a.Customer, d2, "20", a.Groups[0])
		t0, t1 := a.Terminals[0], a.Terminals[1]

		out, err := st.Create(ctx, message.Message{CustomerID: a.Customer, SenderID: a.Dispatcher, GID: a.Groups[0], Content: "all", Time: 100}, []string{t0, t1})
		if err != nil || out.Status != 1 || out.Recipients != 2 || out.Kind != "text" {
			t.Fatalf("outgoing %+v %v", out, err)
		}
		center, _ := st.Create(ctx, message.Message{CustomerID: a.Customer, SenderID: t0, Incoming: true, Content: "help", Time: 200}, nil)
		toD2, _ := st.Create(ctx, message.Message{CustomerID: a.Customer, SenderID: t0, Incoming: true, MsID: d2, Content: "d2 only", Time: 300}, nil)
		grp, _ := st.Create(ctx, message.Message{CustomerID: a.Customer, SenderID: t1, Incoming: true, GID: a.Groups[0], Content: "team",
			Kind: "image", File: &message.FileRef{ID: "0123456789abcdef0123456789abcdef", Name: "p.png", Mime: "image/png", Size: 10}, Time: 400}, []string{t0})
		theirs, _ := st.Create(ctx, message.Message{CustomerID: b.Customer, SenderID: b.Terminals[0], Incoming: true, Content: "x", Time: 200}, nil)
		if center.Status != 0 || grp.Status != 0 {
			t.Fatalf("incoming status %d %d", center.Status, grp.Status)
		}
		got, err := st.Get(ctx, a.Customer, grp.ID)
		if err != nil || got.File == nil || got.File.Name != "p.png" || got.Kind != "image" || got.GName == "" {
			t.Fatalf("get with attachment %+v %v", got, err)
		}
		if _, err := st.Get(ctx, b.Customer, grp.ID); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("another customer's message: %v", err)
		}

		// Dispatcher 1 does not count dispatcher 2's message as its unread; dispatcher 2 does.
		if _, n, _ := st.Unread(ctx, a.Customer, a.Dispatcher, 100); n != 2 {
			t.Fatalf("unread for dispatcher 1: %d", n)
		}
		if _, n, _ := st.Unread(ctx, a.Customer, d2, 100); n != 3 {
			t.Fatalf("unread for dispatcher 2: %d", n)
		}
		convs, err := st.UnreadConversations(ctx, a.Customer, d2)
		if err != nil || len(convs) != 2 || convs[0].Type != "2" || convs[0].Unreads != 1 || convs[1].MsID != t0 || convs[1].Unreads != 2 {
			t.Fatalf("conversations %+v %v", convs, err)
		}

		// All or nothing: one foreign id fails the request and reads nothing.
		if _, err := st.MarkRead(ctx, a.Customer, a.Dispatcher, message.ReadRequest{IDs: []int64{center.ID, theirs.ID}}, 500); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("foreign id: %v", err)
		}
		// Dispatcher 1 cannot read dispatcher 2's message for it.
		ids, err := st.MarkRead(ctx, a.Customer, a.Dispatcher, message.ReadRequest{MsID: t0}, 500)
		if err != nil || len(ids) != 1 || ids[0] != center.ID {
			t.Fatalf("read t0's conversation: %v %v", ids, err)
		}
		ids, _ = st.MarkRead(ctx, a.Customer, d2, message.ReadRequest{All: true}, 600)
		if len(ids) != 2 {
			t.Fatalf("read all by dispatcher 2: %v", ids)
		}
		m, _ := st.Get(ctx, a.Customer, toD2.ID)
		if m.Status != 1 || m.ReadBy != d2 || m.ReadAt != 600 {
			t.Fatalf("read state %+v", m)
		}
		if m, _ := st.Get(ctx, b.Customer, theirs.ID); m.Status != 0 {
			t.Fatal("another customer's message was read")
		}

		// Conversations.
		list, total, err := st.Find(ctx, a.Customer, message.Query{Conversation: message.ConvTerminal, MsID: t0, From: 0, To: 1000, Limit: 10})
		if err != nil || total != 2 || list[0].ID != toD2.ID || list[1].ID != center.ID {
			t.Fatalf("t0 conversation %d %+v %v", total, list, err)
		}
		if _, total, _ := st.Find(ctx, a.Customer, message.Query{Conversation: message.ConvGroup, GID: a.Groups[0], From: 0, To: 1000, Limit: 10}); total != 2 {
			t.Fatalf("group conversation %d", total)
		}
		if _, total, _ := st.Find(ctx, a.Customer, message.Query{From: 150, To: 350, Limit: 10}); total != 2 {
			t.Fatalf("time range %d", total)
		}

		// Report counts come from the recipient rows.
		if _, _, err := st.MarkDelivered(ctx, out.ID, t0, 700); err != nil {
			t.Fatal(err)
		}
		_, total, sum, err := st.Report(ctx, a.Customer, message.ReportQuery{From: 0, To: 1000, Limit: 10})
		if err != nil || total != 4 || len(sum) != 2 {
			t.Fatalf("report %d %+v %v", total, sum, err)
		}
		if sum[0].MsID != t0 || sum[0].Sent != 2 || sum[0].Received != 2 || sum[0].Delivered != 1 ||
			sum[1].MsID != t1 || sum[1].Sent != 1 || sum[1].Received != 1 || sum[1].Delivered != 0 {
			t.Fatalf("summary %+v", sum)
		}
	})
}
