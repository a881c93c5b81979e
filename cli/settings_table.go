package cli

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"cardterm/apiclient"
)

// The settings table: every setting of cardterm is one row here, and the
// flags, the environment variables, the profile file's keys, `profile add`
// and `profile show`, the "unknown setting" message, flag completion and
// the README's settings table are all made from it. Adding a setting is a
// row, a field of options for its value, and the code that uses it.

// settingKind is what values a setting takes.
type settingKind int

const (
	textSetting     settingKind = iota // any text (trimmed), checked by the row's check
	switchSetting                      // true or false; the flag alone means true
	durationSetting                    // a positive duration such as 15s
	choiceSetting                      // one of the row's choices, in any letter case
)

// commandKinds is a set of kinds of command, for which commands take a
// setting.
type commandKinds uint8

const (
	// appCommands run the app: cardterm itself and cardterm support.
	appCommands commandKinds = 1 << iota
	// gatewayCommands send requests without the app: get, api, sandbox
	// trigger, resend and logs.
	gatewayCommands
	// localCommands are listen, which talks to a gateway only to
	// register its own webhook on a sandbox (--base-url, --client-key;
	// webhook verify takes only --profile).
	localCommands
	// sandboxCommands serve or keep the sandbox gateway: cardterm sandbox
	// and its reset, export and import.
	sandboxCommands

	// appAndGateway is what a row takes when it names nothing.
	appAndGateway = appCommands | gatewayCommands
	// everywhere adds listen to them.
	everywhere = appAndGateway | localCommands
)

// takes reports whether a command of kind reads the setting.
func (s *setting) takes(kind commandKinds) bool {
	taken := s.takenBy
	if taken == 0 {
		taken = appAndGateway
	}
	return taken&kind != 0
}

// setting is one row of the table.
type setting struct {
	name    string // the flag (--name) and how messages name the setting
	short   string // the flag's one-letter form, "" for none
	env     string // its environment variable
	key     string // its key in a profile of config.yaml; "" when profiles do not hold it
	kind    settingKind
	choices []string // for a choice: the values, as they are written back
	// placeholder names the value in help and the README (URL, KEY, FILE).
	placeholder string
	usage       string // what it does: the flag's help and the README's line
	// initial is the value when nothing sets it; unset says what that
	// means to a reader (profile show, the README), when initial alone
	// would not ("" for a base URL is the embedded sandbox).
	initial, unset string
	label          string // its name in `profile show` and `profile list`
	// takenBy is the kinds of command that take the setting's flag (and
	// read its value); 0 means the app and the commands that talk to a
	// gateway (appAndGateway).
	takenBy commandKinds
	// survives keeps a value given by a flag or the environment over a
	// switch of profile in the app (a switch only when on, so a switch of
	// profile never turns a safeguard off).
	survives bool
	// check is a rule beyond the kind's; nil for none.
	check func(string) error
	// field is where options holds the resolved value: *string, *bool or
	// *time.Duration.
	field func(*options) any
}

// The environment variables of the settings, for the code that reads
// them elsewhere (tests, the help text).
const (
	envBaseURL       = "CARDTERM_BASE_URL"
	envClientKey     = "CARDTERM_CLIENT_KEY"
	envClientID      = "CARDTERM_CLIENT_ID"
	envUS            = "CARDTERM_US"
	envReadOnly      = "CARDTERM_READ_ONLY"
	envTimeout       = "CARDTERM_TIMEOUT"
	envEnvironment   = "CARDTERM_ENVIRONMENT"
	envProfile       = "CARDTERM_PROFILE"
	envDebug         = "CARDTERM_DEBUG"
	envStart         = "CARDTERM_START"
	envProxy         = "CARDTERM_PROXY"
	envAgent         = "CARDTERM_AGENT"
	envPresenter     = "CARDTERM_PRESENTER"
	envMouse         = "CARDTERM_MOUSE"
	envSandboxData   = "CARDTERM_SANDBOX_DATA"
	envRequireTicket = "CARDTERM_REQUIRE_TICKET"
	envAccessible    = "CARDTERM_ACCESSIBLE"
	envAlerts        = "CARDTERM_ALERTS"
	envAlertEvery    = "CARDTERM_ALERT_INTERVAL"
	envPayMethod     = "CARDTERM_ORDER_PAYMENT_METHOD"
	envResponseTimes = "CARDTERM_RESPONSE_TIMES"
	envTheme         = "CARDTERM_THEME"
)

// defaultAlertInterval is how often the app looks for new transactions.
const defaultAlertInterval = 30 * time.Second

const defaultTimeout = 15 * time.Second

// The table writes these two as text ("15s"), as a Duration.String() call
// in it would run before main on every start; TestDurationDefaultsAsText
// keeps the text and the constants the same.

// environments are the values of --environment.
var environments = []string{"production", "staging", "sandbox"}

// settings is the table, in the order help, profile show and the README
// list them.
var settings = []*setting{
	{name: "base-url", env: envBaseURL, key: "base_url", placeholder: "URL", label: "gateway",
		usage: "gateway base URL; without it cardterm starts the embedded sandbox gateway",
		unset: "the embedded sandbox", check: checkBaseURLSetting, takenBy: everywhere,
		field: func(o *options) any { return &o.baseURL }},
	{name: "client-key", env: envClientKey, key: "client_key", placeholder: "KEY", label: "client key",
		usage: "public client key (x-client-key) of your gateway credentials",
		unset: "the sandbox's first tenant", takenBy: everywhere, field: func(o *options) any { return &o.clientKey }},
	{name: "client-id", env: envClientID, key: "client_id", placeholder: "ID", label: "client id",
		usage: "client id for orders (X-Client-ID) and OAuth; the embedded sandbox's is known, a `cardterm sandbox` demo tenant's is used once its answers announce it",
		unset: "none: orders are refused, naming it (OAuth uses the client key)", field: func(o *options) any { return &o.clientID }},
	{name: "proxy", env: envProxy, key: "proxy", placeholder: "URL", label: "proxy",
		usage: "send gateway requests through this HTTP(S) proxy (never requests to this machine)",
		unset: "$HTTPS_PROXY, or none", check: checkProxySetting,
		field: func(o *options) any { return &o.proxy }},
	{name: "us", env: envUS, key: "us", kind: switchSetting, label: "US backend",
		usage: "route requests to the US backend (x-us-env: true)", initial: "false",
		field: func(o *options) any { return &o.us }},
	{name: "read-only", env: envReadOnly, key: "read_only", kind: switchSetting, label: "read-only",
		usage: "hide and refuse every action that changes anything (for support agents)", initial: "false",
		survives: true, field: func(o *options) any { return &o.readOnly }},
	{name: "timeout", env: envTimeout, key: "timeout", kind: durationSetting, placeholder: "DURATION", label: "timeout",
		usage: "time limit of one gateway request (or of a forward, for listen)", initial: "15s",
		takenBy: everywhere, field: func(o *options) any { return &o.timeout }},
	{name: "environment", env: envEnvironment, key: "environment", kind: choiceSetting, choices: environments,
		placeholder: "ENV", label: "environment",
		usage: "what a remote gateway is: production (the status bar says PRODUCTION and the support console asks for the last 4 characters of the user id before a revoke or a link), staging or sandbox",
		unset: "production for a remote gateway", field: func(o *options) any { return &o.environment }},
	{name: "start", env: envStart, key: "start", kind: choiceSetting, choices: []string{"sign-in", "support"},
		placeholder: "PLACE", label: "start",
		usage:   "where the app starts: sign-in, or support (the support console, as cardterm support)",
		initial: "sign-in", field: func(o *options) any { return &o.start }},
	{name: "agent", env: envAgent, key: "agent", placeholder: "NAME", label: "agent",
		usage: "who you are in the support console's action log and case files",
		unset: "the OS user", field: func(o *options) any { return &o.agent }},
	{name: "response-times", env: envResponseTimes, key: "response_times", placeholder: "TIMES", label: "due times",
		usage: "how long a support case of each priority may wait for an answer, for the queue's due column and the handover (urgent=1h,high=4h,normal=24h,low=72h)",
		unset: "urgent=1h,high=4h,normal=24h,low=72h", takenBy: appCommands, check: checkResponseTimes,
		field: func(o *options) any { return &o.responseTimes }},
	{name: "require-ticket", env: envRequireTicket, key: "require_ticket", kind: switchSetting, label: "ticket",
		usage: "the support console asks for the case's ticket before any change (revoke, link) or customer-approved session",
		unset: "on in production, off elsewhere", takenBy: appCommands, survives: true,
		field: func(o *options) any { return &o.requireTicket }},
	{name: "profile", short: "p", env: envProfile, placeholder: "NAME", label: "profile",
		usage: "use the named profile (see cardterm profile list)", unset: "the default profile",
		takenBy: everywhere | sandboxCommands, check: checkProfileName, field: func(o *options) any { return &o.profile }},
	{name: "debug", env: envDebug, placeholder: "FILE", label: "debug log",
		usage: "append one line per gateway request to FILE (no secrets)", unset: "no log", survives: true,
		takenBy: everywhere, field: func(o *options) any { return &o.debugFile }},
	{name: "presenter", env: envPresenter, key: "presenter", kind: switchSetting, label: "presenter",
		usage:   "show the last keys pressed in a corner of the app, for demos on a projector (f2 hides or shows them)",
		initial: "false", takenBy: appCommands, survives: true, field: func(o *options) any { return &o.presenter }},
	{name: "accessible", env: envAccessible, key: "accessible", kind: switchSetting, label: "accessible",
		usage:   "for screen readers: no alternate screen, no drawing, no animation, no colour; each screen printed as plain lines with its actions as a numbered list, input read a line at a time",
		initial: "false", takenBy: appCommands, survives: true, field: func(o *options) any { return &o.accessible }},
	{name: "theme", env: envTheme, key: "theme", placeholder: "THEME", label: "theme",
		usage:   "the colours: auto (follow the terminal's background), dark, light, high-contrast, colour-blind (Okabe-Ito), or the path of a theme file (docs/themes.md); NO_COLOR still wins",
		initial: "auto", check: checkThemeSetting, takenBy: appCommands, survives: true,
		field: func(o *options) any { return &o.theme }},
	{name: "mouse", env: envMouse, key: "mouse", kind: switchSetting, label: "mouse",
		usage:   "let the app take clicks and the wheel (shift, or option on macOS, still selects text); --mouse=false leaves the mouse to the terminal",
		initial: "true", takenBy: appCommands, field: func(o *options) any { return &o.mouse }},
	{name: "alerts", env: envAlerts, key: "alerts", kind: switchSetting, label: "alerts",
		usage:   "while the app runs, tell of new and declined card transactions: a notice, and a desktop notification where the terminal shows one (docs/statements.md)",
		initial: "true", takenBy: appCommands, field: func(o *options) any { return &o.alerts }},
	{name: "alert-interval", env: envAlertEvery, key: "alert_interval", kind: durationSetting, placeholder: "DURATION", label: "alert every",
		usage:   "how often the alerts read the newest transactions (at least 2s; a failing gateway is asked less often)",
		initial: "30s", takenBy: appCommands, field: func(o *options) any { return &o.alertInterval }},
	{name: "order-payment-method", env: envPayMethod, key: "order_payment_method", placeholder: "METHOD", label: "payment",
		usage:   "the paymentMethod a card order sends (CRYPTO_EXTERNAL_<PROVIDER>), for a tenant that offers another provider",
		initial: apiclient.PaymentMethodDaimo, check: checkPaymentMethod, takenBy: appCommands,
		field: func(o *options) any { return &o.orderPaymentMethod }},
	{name: "data", env: envSandboxData, key: "sandbox_data", placeholder: "DIR", label: "sandbox dir",
		usage: "directory cardterm sandbox keeps its state in across restarts (created when missing); sandbox reset, export and import work on it",
		unset: "in memory", takenBy: sandboxCommands, field: func(o *options) any { return &o.sandboxData }},
}

// settingNamed is the row of the flag name.
func settingNamed(name string) *setting {
	for _, s := range settings {
		if s.name == name {
			return s
		}
	}
	panic("no setting " + name) // a programming error: names are constants
}

// settingOfKey is the row of a profile key, nil for none.
func settingOfKey(key string) *setting {
	for _, s := range settings {
		if s.key != "" && s.key == key {
			return s
		}
	}
	return nil
}

// profileKeys lists the keys a profile may hold, name first, for the
// "unknown setting" message.
func profileKeys() []string {
	keys := []string{"name"}
	for _, s := range settings {
		if s.key != "" {
			keys = append(keys, s.key)
		}
	}
	return keys
}

// parse checks a value given for the setting and returns it as it is kept
// and written back: trimmed, a switch as true or false, a duration as
// "15s", a choice in the letter case of the table.
func (s *setting) parse(text string) (string, error) {
	text = strings.TrimSpace(text)
	switch s.kind {
	case switchSetting:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return "", fmt.Errorf("%q is not true or false", text)
		}
		return strconv.FormatBool(b), nil
	case durationSetting:
		d, err := time.ParseDuration(text)
		if err != nil || d <= 0 {
			return "", fmt.Errorf("%q is not a positive duration such as 15s", text)
		}
		return d.String(), nil
	case choiceSetting:
		for _, c := range s.choices {
			if strings.EqualFold(text, c) {
				return c, nil
			}
		}
		return "", fmt.Errorf("%q is not %s (any letter case)", text, orList(s.choices))
	}
	if s.check != nil {
		if err := s.check(text); err != nil {
			return "", err
		}
	}
	return text, nil
}

// assign puts a parsed value (or the row's initial one, for "") into o.
func (s *setting) assign(o *options, text string) {
	if text == "" {
		text = s.initial
	}
	switch field := s.field(o).(type) {
	case *string:
		*field = text
	case *bool:
		*field = text == "true"
	case *time.Duration:
		*field, _ = time.ParseDuration(text) // parse has checked it
	}
}

// describe is how profile show and the README write a value; "" is the
// row's unset text or initial value, marked as the default.
func (s *setting) describe(text string) string {
	if text != "" {
		return text
	}
	if s.unset != "" {
		return s.unset + " (default)"
	}
	return s.initial + " (default)"
}

// orList writes "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// checkProxySetting accepts an http, https or socks5 URL with a host.
func checkProxySetting(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "socks5") || u.Host == "" {
		return fmt.Errorf("%q is not an http, https or socks5 URL", raw)
	}
	return nil
}

// checkBaseURLSetting accepts an http(s) URL with a host.
func checkBaseURLSetting(raw string) error {
	_, err := checkBaseURL(raw)
	if u, ok := err.(usageError); ok {
		return fmt.Errorf("%s", strings.TrimPrefix(u.msg, "--base-url "))
	}
	return err
}

// checkPaymentMethod takes CRYPTO_EXTERNAL_<PROVIDER>, the only form the
// interface names.
func checkPaymentMethod(text string) error {
	provider, ok := strings.CutPrefix(strings.ToUpper(text), "CRYPTO_EXTERNAL_")
	if !ok || provider == "" || strings.Trim(provider, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
		return fmt.Errorf("%q is not CRYPTO_EXTERNAL_<PROVIDER> (letters, digits and _)", text)
	}
	return nil
}
