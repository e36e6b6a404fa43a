package auth_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"tenfour/internal/auth"
	"tenfour/internal/config"
	"tenfour/internal/testkit"
)

func mailFixture(t *testing.T, engine string) (*fixture, *mailbox) {
	smtpCfg, box := startSMTP(t)
	f := newFixture(t, engine, func(c *config.Config) { c.SMTP = smtpCfg })
	return f, box
}

// requestCode asks for a code and reads it out of the mail that arrives.
func requestCode(t *testing.T, f *fixture, box *mailbox, uid, email, typ, lang string) (string, received) {
	t.Helper()
	r := f.Do("GET", "/ds/pub/getVerifyCode", "", map[string]any{"uid": uid, "email": email, "type": typ, "lang": lang})
	if r.Code != "0" || !strings.Contains(string(r.Result), `"expiresIn":600`) {
		t.Fatalf("getVerifyCode %s %s: %+v", uid, typ, r)
	}
	m := box.next(t)
	return m.code(t), m
}

func TestBindEmail(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f, box := mailFixture(t, engine)
		const gvc, bind = "/ds/pub/getVerifyCode", "/ds/pub/bindEmail"
		f.run(t, []testkit.Scenario{
			{Name: "no bound e-mail for reset", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "email": "a@example.com", "type": "reset", "lang": "en-US"}, Status: 404, Code: "104"},
			{Name: "no bound e-mail for login", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "type": "login"}, Status: 404, Code: "104"},
			{Name: "unknown account", Method: "GET", Path: gvc, Params: map[string]any{"uid": "99999999", "email": "a@example.com", "type": "bind"}, Status: 404, Code: "104"},
			{Name: "malformed account", Method: "GET", Path: gvc, Params: map[string]any{"uid": "1", "email": "a@example.com", "type": "bind"}, Status: 400, Code: "1"},
			{Name: "bad type", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "email": "a@example.com", "type": "other"}, Status: 400, Code: "400"},
			{Name: "missing type", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "email": "a@example.com"}, Status: 400, Code: "400"},
			{Name: "missing e-mail", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "type": "bind"}, Status: 400, Code: "400"},
			{Name: "bad e-mail", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "email": "Bob <b@example.com>", "type": "bind"}, Status: 400, Code: "400"},
			{Name: "oversized e-mail", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "email": strings.Repeat("a", 300) + "@example.com", "type": "bind"}, Status: 400, Code: "400"},
			{Name: "oversized lang", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "email": "a@example.com", "type": "bind", "lang": strings.Repeat("x", 100)}, Status: 400, Code: "400"},
		})
		box.empty(t)

		code, m := requestCode(t, f, box, adminA, "Admin@Example.com", "bind", "fr-FR")
		if len(m.To) != 1 || m.To[0] != "admin@example.com" || m.Subject != "Votre code de vérification tenfour" ||
			!strings.Contains(m.Text, adminA) {
			t.Fatalf("bind mail: %+v", m)
		}
		wrongCode := "000000"
		if code == wrongCode {
			wrongCode = "000001"
		}
		p := func(auth, email, code string) map[string]any {
			return map[string]any{"uid": adminA, "auth": auth, "email": email, "verifyCode": code}
		}
		f.run(t, []testkit.Scenario{
			{Name: "resend at once", Method: "GET", Path: gvc, Params: map[string]any{"uid": adminA, "email": "admin@example.com", "type": "bind"}, Status: 429, Code: "429"},
			{Name: "wrong password", Method: "GET", Path: bind, Params: p("000000", "admin@example.com", code), Status: 401, Code: "2", Changes: true},
			{Name: "missing password", Method: "GET", Path: bind, Params: p("", "admin@example.com", code), Status: 400, Code: "400"},
			// The right password clears the count of the wrong one above: the only change.
			{Name: "malformed code", Method: "GET", Path: bind, Params: p(pw, "admin@example.com", "12ab"), Status: 400, Code: "14", Changes: true},
			{Name: "malformed code again", Method: "GET", Path: bind, Params: p(pw, "admin@example.com", "12ab"), Status: 400, Code: "14"},
			{Name: "wrong code", Method: "GET", Path: bind, Params: p(pw, "admin@example.com", wrongCode), Status: 400, Code: "14", Changes: true},
			{Name: "other address", Method: "GET", Path: bind, Params: p(pw, "other@example.com", code), Status: 400, Code: "14", Changes: true},
			{Name: "bind", Method: "GET", Path: bind, Params: p(pw, "ADMIN@example.com", code), Status: 200, Code: "0",
				Check: func(t *testing.T, r testkit.Reply) {
					var email string
					f.DB.QueryRow(context.Background(), `SELECT email FROM accounts WHERE id = ?`, adminA).Scan(&email)
					if email != "admin@example.com" {
						t.Errorf("bound e-mail %q", email)
					}
					if g := f.Do("GET", "/ds/user/getAccount", f.token(adminA), nil); !strings.Contains(string(g.Result), `"email":"admin@example.com"`) {
						t.Errorf("getAccount: %s", g.Result)
					}
				}},
			{Name: "code used up", Method: "GET", Path: bind, Params: p(pw, "admin@example.com", code), Status: 400, Code: "14"},
			{Name: "address of another account", Method: "GET", Path: gvc, Params: map[string]any{"uid": dispA, "email": "Admin@example.com", "type": "bind"}, Status: 409, Code: "13"},
		})
		box.empty(t)

		// Another account got a code for an address that is bound elsewhere by the time it binds.
		other, _ := requestCode(t, f, box, dispA, "shared@example.com", "bind", "")
		f.exec(`UPDATE accounts SET email = 'shared@example.com' WHERE id = ?`, adminB)
		f.run(t, []testkit.Scenario{
			{Name: "bound meanwhile", Method: "POST", Path: bind, Params: map[string]any{"uid": dispA, "auth": pw, "email": "shared@example.com", "verifyCode": other}, Status: 409, Code: "13"},
		})
	})
}

func TestResetPassword(t *testing.T) {
	testkit.EachEngine(t, func(t *testing.T, engine string) {
		f, box := mailFixture(t, engine)
		f.exec(`UPDATE accounts SET email = 'alpha@example.com' WHERE id = ?`, adminA)
		const newPwd = "Reset#pass9"
		oldSession := f.token(adminA)
		p := func(email, code, pass string) map[string]any {
			return map[string]any{"uid": adminA, "email": email, "verifyCode": code, "newPwd": pass}
		}
		const reset = "/ds/pub/resetPwd"

		code, m := requestCode(t, f, box, adminA, "Alpha@example.com", "reset", "ru-RU")
		if m.To[0] != "alpha@example.com" || m.Subject != "Ваш код подтверждения tenfour" || !strings.Contains(m.Text, "Код подтверждения: "+code) {
			t.Fatalf("reset mail: %+v", m)
		}
		wrong := "111111"
		if code == wrong {
			wrong = "222222"
		}
		f.run(t, []testkit.Scenario{
			{Name: "other bound address", Method: "GET", Path: "/ds/pub/getVerifyCode", Params: map[string]any{"uid": adminA, "email": "x@example.com", "type": "reset"}, Status: 404, Code: "104"},
			{Name: "weak password keeps the code", Method: "POST", Path: reset, Params: p("alpha@example.com", code, "weak"), Status: 400, Code: "12"},
			{Name: "missing password", Method: "POST", Path: reset, Params: p("alpha@example.com", code, ""), Status: 400, Code: "400"},
			{Name: "bad e-mail", Method: "POST", Path: reset, Params: p("nope", code, newPwd), Status: 400, Code: "400"},
			{Name: "wrong e-mail", Method: "POST", Path: reset, Params: p("x@example.com", code, newPwd), Status: 404, Code: "104"},
			{Name: "account without e-mail", Method: "POST", Path: reset, Params: map[string]any{"uid": dispA, "email": "alpha@example.com", "verifyCode": code, "newPwd": newPwd}, Status: 404, Code: "104"},
			{Name: "reset", Method: "POST", Path: reset, Params: p("alpha@example.com", code, "Abc#1234"), Status: 200, Code: "0", Changes: true},
		})
		// The password is now Abc#1234; the code is used up.
		f.clock.Advance(auth.CodeResendInterval)
		code2, _ := requestCode(t, f, box, adminA, "alpha@example.com", "reset", "en-US")
		f.run(t, []testkit.Scenario{
			{Name: "new equals current", Method: "POST", Path: reset, Params: p("alpha@example.com", code2, "Abc#1234"), Status: 400, Code: "11"},
		})
		for i := 1; i <= auth.MaxCodeAttempts; i++ {
			if r := f.Do("POST", reset, "", p("alpha@example.com", wrong, newPwd)); r.Code != "14" {
				t.Fatalf("wrong code %d: %+v", i, r)
			}
		}
		if r := f.Do("POST", reset, "", p("alpha@example.com", code2, newPwd)); r.Code != "14" {
			t.Fatalf("right code after 5 wrong tries: %+v", r)
		}

		// Expiry: a fresh code is refused 10 minutes later.
		f.clock.Advance(auth.CodeResendInterval)
		code3, _ := requestCode(t, f, box, adminA, "alpha@example.com", "reset", "en-US")
		f.clock.Advance(auth.CodeTTL)
		if r := f.Do("POST", reset, "", p("alpha@example.com", code3, newPwd)); r.Status != 400 || r.Code != "14" {
			t.Fatalf("expired code: %+v", r)
		}

		// A lock does not stop the reset; the reset lifts it and ends the sessions.
		f.exec(`UPDATE accounts SET locked_until = ? WHERE id = ?`, f.clock.Now().Add(time.Minute).UnixMilli(), adminA)
		code4, _ := requestCode(t, f, box, adminA, "alpha@example.com", "reset", "en-US")
		if r := f.Do("POST", reset, "", p("alpha@example.com", code4, newPwd)); r.Code != "0" {
			t.Fatalf("reset: %+v", r)
		}
		if r := f.Do("GET", "/ds/user/getAccount", oldSession, nil); r.Code != "105" {
			t.Fatalf("sessions must end on reset: %+v", r)
		}
		if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": adminA, "auth": newPwd}); r.Code != "0" {
			t.Fatalf("sign-in with the new password: %+v", r)
		}
		if r := f.Do("GET", "/ds/user", "", map[string]any{"uid": adminA, "auth": pw}); r.Code != "2" {
			t.Fatalf("the original password still works: %+v", r)
		}
	})
}

func TestLoginCode(t *testing.T) {
	f, box := mailFixture(t, "sqlite")
	f.exec(`UPDATE accounts SET email = 'alpha@example.com' WHERE id = ?`, adminA)
	code, _ := requestCode(t, f, box, adminA, "", "login", "es-ES")
	verify := func(code string) testkit.Reply {
		return f.Do("GET", "/ds/pub/loginext", "", map[string]any{"uid": adminA, "flag": "1", "verifyCode": code})
	}
	if r := verify(code); r.Code != "0" {
		t.Fatalf("verify with the code: %+v", r)
	}
	if r := verify(code); r.Code != "102" {
		t.Fatalf("a login code works once: %+v", r)
	}
}

// TestMailLanguages: the mail is written in the six UI languages; anything else gets en-US.
func TestMailLanguages(t *testing.T) {
	f, box := mailFixture(t, "sqlite")
	f.exec(`UPDATE accounts SET email = 'alpha@example.com' WHERE id = ?`, adminA)
	want := []struct{ lang, subject, line string }{
		{"en-US", "Your tenfour verification code", "Verification code: "},
		{"zh-CN", "您的 tenfour 验证码", "验证码："},
		{"tr-TR", "tenfour doğrulama kodunuz", "Doğrulama kodu: "},
		{"es-ES", "Su código de verificación de tenfour", "Código de verificación: "},
		{"fr-FR", "Votre code de vérification tenfour", "Code de vérification : "},
		{"ru-RU", "Ваш код подтверждения tenfour", "Код подтверждения: "},
		{"zh", "您的 tenfour 验证码", "验证码："},
		{"tr_tr", "tenfour doğrulama kodunuz", "Doğrulama kodu: "},
		{"de-DE", "Your tenfour verification code", "Verification code: "},
		{"", "Your tenfour verification code", "Verification code: "},
	}
	for _, w := range want {
		f.clock.Advance(auth.CodeResendInterval)
		code, m := requestCode(t, f, box, adminA, "alpha@example.com", "reset", w.lang)
		if m.Subject != w.subject || !strings.Contains(m.Text, w.line+code) || !strings.Contains(m.Text, adminA) {
			t.Errorf("lang %q: subject %q, text:\n%s", w.lang, m.Subject, m.Text)
		}
	}
}

func TestMailFailure(t *testing.T) {
	for name, smtpCfg := range map[string]config.SMTP{
		"server down":    {Host: "127.0.0.1", Port: testkit.FreePort(t), From: "tenfour@example.com", TLS: "none"},
		"not configured": {},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, "sqlite", func(c *config.Config) { c.SMTP = smtpCfg })
			f.exec(`UPDATE accounts SET email = 'alpha@example.com' WHERE id = ?`, adminA)
			f.run(t, []testkit.Scenario{
				{Name: "send fails", Method: "GET", Path: "/ds/pub/getVerifyCode", Params: map[string]any{"uid": adminA, "email": "alpha@example.com", "type": "reset"}, Status: 502, Code: "101"},
				// No code was kept, so a retry is not told to wait.
				{Name: "retry at once", Method: "GET", Path: "/ds/pub/getVerifyCode", Params: map[string]any{"uid": adminA, "email": "alpha@example.com", "type": "reset"}, Status: 502, Code: "101"},
			})
		})
	}
}
