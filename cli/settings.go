package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"cardterm/domain/fileerror"
	"cardterm/domain/recordcommand"
)

// Settings: where each of the app's settings comes from. Precedence, for
// every setting on its own: a flag on the command line, then its
// environment variable, then the profile in use, then the default (the
// embedded sandbox and its first tenant). The settings themselves are the
// rows of settings_table.go.

// options are the resolved settings of one run of a command, and what
// the command adds to them.
type options struct {
	// The settings' values (settings_table.go).
	baseURL, clientKey, clientID string
	proxy                        string // an HTTP(S) proxy for gateway requests
	us, readOnly                 bool
	timeout                      time.Duration
	// environment is production, staging, sandbox, or "" (unset: a remote
	// gateway is then production).
	environment string
	start       string // sign-in or support
	agent       string // the agent's name in the support console's action log
	// responseTimes are the support desk's response times per priority
	// ("urgent=1h,high=4h"), for the queue's due column.
	responseTimes string
	// requireTicket is "true" or "false" as set, "" when unset (then on
	// in production): the console asks for a ticket before a change.
	requireTicket string
	// profile is the profile resolved (asked for, or the default one), ""
	// for none; profileInUse says the session's settings come from it.
	profile   string
	debugFile string // receives the debug log
	// presenter shows the last keys pressed in the app; mouse lets the
	// app take clicks and the wheel.
	presenter, mouse bool
	// accessible runs the app in the accessible mode (ui/accessible).
	accessible bool
	// theme is the colours: a built-in's name or a theme file's path
	// (theme_setting.go).
	theme string
	// alerts and alertInterval are the transaction alerts;
	// orderPaymentMethod the card orders' paymentMethod.
	alerts             bool
	alertInterval      time.Duration
	orderPaymentMethod string
	// sandboxData is cardterm sandbox's data directory, "" for memory.
	sandboxData string

	// given is every value a flag or the environment gave, by setting
	// name, for what outlasts a switch of profile.
	given map[string]string
	// profileInUse is true when the profile was asked for (--profile,
	// $CARDTERM_PROFILE, the switcher) or gave some setting its value:
	// only then does the status bar name it and its keyring entry give
	// the secret key.
	profileInUse bool
	// profileFrom says where the profile was named: profileFromFlag (or
	// chosen in the app), profileFromEnv, profileFromDefault, "" for none.
	profileFrom string
	// profiles lists every profile's name, for the in-app switcher.
	profiles []string
	// configProblem says why the config file was ignored, for the app
	// to show on its first screen.
	configProblem string
	// commands are the user's commands on a record (commands.yaml,
	// cmd_keys.go), loaded when the app starts.
	commands *recordcommand.File
	// view is get's --view: a saved view's filters (views.go).
	view string

	// What the command adds.
	json bool // run one look-up (--json) instead of the UI
	// jq, for get --jq, selects from the look-up's answer; nil: all of it.
	jq *gojq.Code
	// support starts in the support console (cardterm support, or start:
	// support), on a user or an onboarding id when one is given.
	support                        bool
	supportUser, supportOnboarding string
	// supportCase is a case file to open (--case); supportCasesDir keeps
	// the case files ("" is the data folder's).
	supportCase, supportCasesDir string
	// secrets is the OS keyring; nil reads no keyring.
	secrets *secretStore
	// noPrompt never asks for the secret key (look-ups: one request, no
	// session to refresh); the environment and the keyring still give it.
	noPrompt bool
}

// givenFlags are the setting flags given on a command line, by setting
// name, as parsed (setting.parse).
type givenFlags map[string]string

// settingFlag is a setting's flag: it parses what is given with the
// setting's own rules, so a bad value fails while the command line is
// read, before anything runs.
type settingFlag struct {
	s     *setting
	given givenFlags
}

func (f settingFlag) String() string {
	if v, ok := f.given[f.s.name]; ok {
		return v
	}
	return f.s.initial
}

func (f settingFlag) Set(text string) error {
	v, err := f.s.parse(text)
	if err != nil {
		return err
	}
	f.given[f.s.name] = v
	return nil
}

func (f settingFlag) Type() string {
	switch f.s.kind {
	case switchSetting:
		return "bool"
	case durationSetting:
		return "duration"
	}
	return "string"
}

// addSettingFlags declares on cmd the flags of the settings take keeps,
// with completion of their values, and returns where the given ones land.
func addSettingFlags(cmd *cobra.Command, take func(*setting) bool) givenFlags {
	given := givenFlags{}
	fs := cmd.Flags()
	for _, s := range settings {
		if !take(s) {
			continue
		}
		usage := s.usage
		if s.env != "" {
			usage += " [$" + s.env + "]"
		}
		flag := fs.VarPF(settingFlag{s: s, given: given}, s.name, s.short, usage)
		if s.kind == switchSetting {
			flag.NoOptDefVal = "true"
		}
		_ = cmd.RegisterFlagCompletionFunc(s.name, completeSetting(s))
	}
	return given
}

// completeSetting completes a setting's value: its choices, a file for a
// FILE, profile names for --profile, nothing otherwise.
func completeSetting(s *setting) cobra.CompletionFunc {
	return func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		switch {
		case ownCompletion(s.name) != nil:
			return ownCompletion(s.name)(c, nil, "")
		case s.kind == choiceSetting:
			return s.choices, cobra.ShellCompDirectiveNoFileComp
		case s.kind == switchSetting:
			return []string{"true", "false"}, cobra.ShellCompDirectiveNoFileComp
		case s.name == "profile":
			return completeProfileNames(c, nil, "")
		case s.placeholder == "FILE":
			return nil, cobra.ShellCompDirectiveDefault
		case s.placeholder == "DIR":
			return nil, cobra.ShellCompDirectiveFilterDirs
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

// appSettings are the flags of the app (cardterm, cardterm support).
func appSettings(s *setting) bool { return s.takes(appCommands) }

// gatewaySettings are the flags of a command that talks to a gateway
// without the app (get, api, sandbox trigger).
func gatewaySettings(s *setting) bool { return s.takes(gatewayCommands) }

// localSettings are the flags of a command that talks to no gateway
// (listen): the profile, the debug log, the timeout.
func localSettings(s *setting) bool { return s.takes(localCommands) }

// sandboxSettings are the flags of cardterm sandbox and its data
// commands: the data directory and the profile it may come from.
func sandboxSettings(s *setting) bool { return s.takes(sandboxCommands) }

// profileSettings are the flags of profile add: what a profile holds.
func profileSettings(s *setting) bool { return s.key != "" }

// settingSources are where resolveOptions looks: the flags given (nil for
// none) and the environment (nil for none; the in-app switcher uses
// neither, so the chosen profile is what it gets).
type settingSources struct {
	flags givenFlags
	env   func(string) string
	// profile, when set, is the profile chosen by name (the switcher,
	// profile check), over --profile and $CARDTERM_PROFILE.
	profile string
}

// profileOnly is the settings of the named profile alone: no flags, no
// environment.
func profileOnly(name string) settingSources { return settingSources{profile: name} }

// resolveOptions applies the precedence to every setting. cfg is nil when
// the config file is malformed: then no profile applies. A named profile
// that does not exist, or a malformed value in the environment, is a
// usage error; flags and profiles were checked when they were read.
func resolveOptions(src settingSources, cfg *config) (options, error) {
	env := func(name string) string {
		if src.env == nil || name == "" {
			return ""
		}
		return strings.TrimSpace(src.env(name))
	}
	o := options{given: map[string]string{}}
	// A value given by a flag, else the environment, checked.
	given := func(s *setting) (string, bool, error) {
		if v, ok := src.flags[s.name]; ok {
			return v, true, nil
		}
		if raw := env(s.env); raw != "" {
			v, err := s.parse(raw)
			if err != nil {
				return "", false, usageError{fmt.Sprintf("$%s: %v", s.env, err)}
			}
			return v, true, nil
		}
		return "", false, nil
	}

	// Which profile: the one chosen by name, --profile, $CARDTERM_PROFILE,
	// the default one.
	name, chosen, err := given(settingNamed("profile"))
	if err != nil {
		return o, err
	}
	if src.profile != "" {
		name, chosen = src.profile, true
	}
	switch _, flag := src.flags["profile"]; {
	case src.profile != "" || flag:
		o.profileFrom = profileFromFlag
	case chosen:
		o.profileFrom = profileFromEnv
	}
	var p profile
	if cfg != nil {
		o.profiles = cfg.names()
		if name == "" && cfg.Default != "" {
			name, o.profileFrom = cfg.Default, profileFromDefault
		}
		if name != "" {
			found, ok := cfg.find(name)
			if !ok {
				return o, usageError{fmt.Sprintf("no profile called %q (there are: %s); add it with: cardterm profile add %s", name, listOrNone(o.profiles), name)}
			}
			p = found
		}
	}
	for _, s := range settings {
		if s.name == "profile" {
			continue
		}
		v, ok, err := given(s)
		if err != nil {
			return o, err
		}
		if ok {
			o.given[s.name] = v
		} else if v = p.get(s.key); v != "" {
			o.profileInUse = true
		}
		s.assign(&o, v)
	}
	o.profile = p.Name
	o.profileInUse = p.Name != "" && (chosen || o.profileInUse)
	o.support = o.start == "support"
	return o, nil
}

// profileShown is the profile the status bar names: the one in use, ""
// when the session's settings do not come from a profile.
func (o options) profileShown() string {
	if !o.profileInUse {
		return ""
	}
	return o.profile
}

// afterSwitch resolves the settings of the profile chosen in the app: the
// profile alone, but for the values given at start that survive a switch
// (--read-only when on, --debug).
func (o options) afterSwitch(next string, cfg *config) (options, error) {
	kept := givenFlags{}
	for _, s := range settings {
		v, ok := o.given[s.name]
		if !ok || !s.survives || (s.kind == switchSetting && v != "true") {
			continue
		}
		kept[s.name] = v
	}
	n, err := resolveOptions(settingSources{flags: kept, profile: next}, cfg)
	if err != nil {
		return n, err
	}
	n.secrets = o.secrets
	return n, nil
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// loadConfigOrWarn reads the config file for a command that can run
// without it: a malformed file is reported (file, line, field) and
// ignored, so the app still starts, on the embedded sandbox unless flags
// or the environment say otherwise. problem is that report, "" if none.
func loadConfigOrWarn(stderr io.Writer) (cfg *config, problem string) {
	cfg, err := loadConfig(configPath())
	if err == nil {
		return cfg, ""
	}
	var ce *fileerror.Error
	if errors.As(err, &ce) {
		problem = err.Error() + " (the config file is ignored until it is fixed)"
	} else {
		problem = "reading the config file: " + err.Error() + " (profiles are unavailable)"
	}
	fmt.Fprintln(stderr, "cardterm:", problem)
	return nil, problem
}

// resolveCommandOptions resolves the settings of a command: its flags,
// the environment, the profile (a malformed config file is reported and
// ignored), with the OS keyring for the secret key. Every command that
// takes settings goes through here, so each gets the same values.
func resolveCommandOptions(given givenFlags, std streams) (options, error) {
	cfg, problem := loadConfigOrWarn(std.stderr)
	o, err := resolveOptions(settingSources{flags: given, env: os.Getenv}, cfg)
	if err != nil {
		return o, err
	}
	o.configProblem = problem
	o.secrets = &secretStore{warn: std.stderr}
	noteProfile(o, std.stderr)
	return o, nil
}

var _ pflag.Value = settingFlag{}
