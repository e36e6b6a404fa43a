package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"tenfour/internal/config"
)

// Mail is one plain-text message.
type Mail struct {
	To      string
	Subject string
	Text    string
}

// Mailer delivers mail. The SMTP implementation is the real one; tests run a real SMTP server in-process.
type Mailer interface {
	Send(ctx context.Context, m Mail) error
}

// ErrMailNotConfigured is returned when no SMTP server is configured (--smtp-host).
var ErrMailNotConfigured = errors.New("no SMTP server configured (--smtp-host)")

// smtpTimeout bounds a whole delivery so a stuck mail server answers 101 well inside the console's 30 s.
const smtpTimeout = 15 * time.Second

type smtpMailer struct {
	cfg config.SMTP
}

// NewSMTPMailer sends through the configured server. With no host configured every Send fails with
// ErrMailNotConfigured (and getVerifyCode answers 101).
func NewSMTPMailer(cfg config.SMTP) Mailer { return smtpMailer{cfg: cfg} }

func (m smtpMailer) Send(ctx context.Context, mail Mail) error {
	if m.cfg.Host == "" {
		return ErrMailNotConfigured
	}
	opts := []gomail.Option{gomail.WithTimeout(smtpTimeout)}
	if m.cfg.Port != 0 {
		opts = append(opts, gomail.WithPort(m.cfg.Port))
	}
	mode := m.cfg.TLS
	if mode == "" {
		mode = "none"
		if m.cfg.User != "" {
			mode = "starttls" // never send a password in clear by default
		}
	}
	switch mode {
	case "tls":
		opts = append(opts, gomail.WithSSL())
	case "starttls":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		return fmt.Errorf("smtp: unknown TLS mode %q (starttls, tls or none)", m.cfg.TLS)
	}
	if m.cfg.User != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(m.cfg.User), gomail.WithPassword(m.cfg.Password))
	}
	c, err := gomail.NewClient(m.cfg.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp client: %w", err)
	}
	msg := gomail.NewMsg()
	if err := msg.From(m.cfg.From); err != nil {
		return fmt.Errorf("smtp from: %w", err)
	}
	if err := msg.To(mail.To); err != nil {
		return fmt.Errorf("smtp to: %w", err)
	}
	msg.Subject(mail.Subject)
	msg.SetDate()
	msg.SetMessageID()
	msg.SetBodyString(gomail.TypeTextPlain, mail.Text)
	ctx, cancel := context.WithTimeout(ctx, smtpTimeout)
	defer cancel()
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp send: %w", err)
	}
	return nil
}

// Code purposes (the `type` parameter of getVerifyCode).
const (
	PurposeBind  = "bind"
	PurposeReset = "reset"
	PurposeLogin = "login"
)

// mailText is one language's verification mail. Intro lines take the account number.
type mailText struct {
	Subject string
	Intro   map[string]string // by purpose
	Code    string
	Expiry  string
	Ignore  string
}

// DefaultLanguage is used when the requested one is not a UI language.
const DefaultLanguage = "en-US"

// mailTexts are the verification mails in the six UI languages (spec §1).
var mailTexts = map[string]mailText{
	"en-US": {
		Subject: "Your tenfour verification code",
		Intro: map[string]string{
			PurposeBind:  "Use this code to bind this e-mail address to account %s.",
			PurposeReset: "Use this code to reset the password of account %s.",
			PurposeLogin: "Use this code to sign in to account %s.",
		},
		Code:   "Verification code: %s",
		Expiry: "The code expires in 10 minutes.",
		Ignore: "If you did not ask for this code, ignore this e-mail.",
	},
	"zh-CN": {
		Subject: "您的 tenfour 验证码",
		Intro: map[string]string{
			PurposeBind:  "请使用此验证码将本邮箱绑定到账号 %s。",
			PurposeReset: "请使用此验证码重置账号 %s 的密码。",
			PurposeLogin: "请使用此验证码登录账号 %s。",
		},
		Code:   "验证码：%s",
		Expiry: "验证码 10 分钟内有效。",
		Ignore: "如果您没有申请此验证码，请忽略本邮件。",
	},
	"tr-TR": {
		Subject: "tenfour doğrulama kodunuz",
		Intro: map[string]string{
			PurposeBind:  "Bu e-posta adresini %s hesabına bağlamak için bu kodu kullanın.",
			PurposeReset: "%s hesabının parolasını sıfırlamak için bu kodu kullanın.",
			PurposeLogin: "%s hesabında oturum açmak için bu kodu kullanın.",
		},
		Code:   "Doğrulama kodu: %s",
		Expiry: "Kod 10 dakika geçerlidir.",
		Ignore: "Bu kodu siz istemediyseniz bu e-postayı dikkate almayın.",
	},
	"es-ES": {
		Subject: "Su código de verificación de tenfour",
		Intro: map[string]string{
			PurposeBind:  "Use este código para vincular esta dirección de correo a la cuenta %s.",
			PurposeReset: "Use este código para restablecer la contraseña de la cuenta %s.",
			PurposeLogin: "Use este código para iniciar sesión en la cuenta %s.",
		},
		Code:   "Código de verificación: %s",
		Expiry: "El código caduca en 10 minutos.",
		Ignore: "Si no ha solicitado este código, ignore este correo.",
	},
	"fr-FR": {
		Subject: "Votre code de vérification tenfour",
		Intro: map[string]string{
			PurposeBind:  "Utilisez ce code pour associer cette adresse e-mail au compte %s.",
			PurposeReset: "Utilisez ce code pour réinitialiser le mot de passe du compte %s.",
			PurposeLogin: "Utilisez ce code pour vous connecter au compte %s.",
		},
		Code:   "Code de vérification : %s",
		Expiry: "Le code expire dans 10 minutes.",
		Ignore: "Si vous n'avez pas demandé ce code, ignorez cet e-mail.",
	},
	"ru-RU": {
		Subject: "Ваш код подтверждения tenfour",
		Intro: map[string]string{
			PurposeBind:  "Используйте этот код, чтобы привязать этот адрес электронной почты к учётной записи %s.",
			PurposeReset: "Используйте этот код, чтобы сбросить пароль учётной записи %s.",
			PurposeLogin: "Используйте этот код, чтобы войти в учётную запись %s.",
		},
		Code:   "Код подтверждения: %s",
		Expiry: "Код действителен 10 минут.",
		Ignore: "Если вы не запрашивали этот код, просто проигнорируйте это письмо.",
	},
}

// MailLanguage picks the UI language for a `lang` parameter: an exact tag (any case, '_' or '-'), else the
// first UI language with the same primary subtag ("zh", "fr-CA"), else en-US.
func MailLanguage(lang string) string {
	lang = strings.ReplaceAll(strings.TrimSpace(lang), "_", "-")
	for tag := range mailTexts {
		if strings.EqualFold(tag, lang) {
			return tag
		}
	}
	primary, _, _ := strings.Cut(lang, "-")
	for _, tag := range []string{"en-US", "zh-CN", "tr-TR", "es-ES", "fr-FR", "ru-RU"} {
		if p, _, _ := strings.Cut(tag, "-"); strings.EqualFold(p, primary) {
			return tag
		}
	}
	return DefaultLanguage
}

// verificationMail builds the mail carrying code for account uid in the language chosen by lang.
func verificationMail(to, uid, purpose, code, lang string) Mail {
	t := mailTexts[MailLanguage(lang)]
	var b strings.Builder
	fmt.Fprintf(&b, t.Intro[purpose], uid)
	b.WriteString("\n\n")
	fmt.Fprintf(&b, t.Code, code)
	b.WriteString("\n\n")
	b.WriteString(t.Expiry)
	b.WriteString("\n")
	b.WriteString(t.Ignore)
	b.WriteString("\n")
	return Mail{To: to, Subject: t.Subject, Text: b.String()}
}
