package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Settings: where each of the app's settings comes from. Precedence, for
// every setting on its own: a flag on the command line, then its
// environment variable, then the profile in use, then the default (the
// embedded sandbox and its first tenant).

// options are the resolved settings of one run of the app or a look-up.
type options struct {
	baseURL   string
	clientKey string
	clientID  string
	us        bool
	readOnly  bool
	timeout   time.Duration
	json      bool // run one look-up (--json) instead of the UI
	// environment names a remote gateway's environment; "" or
	// "production" marks it as production.
	environment string
	// support starts in the support console (cardterm support, or a
	// profile's start: support), on a user or an onboarding id when one
	// is given.
	support                        bool
	supportUser, supportOnboarding string
	// profile is the name of the profile in use, "" for none.
	profile string
	// profiles lists every profile's name, for the in-app switcher.
	profiles []string
	// debugFile receives the debug log (--debug, $CARDTERM_DEBUG).
	debugFile string
	// secrets is the OS keyring; nil reads no keyring.
	secrets *secretStore
	// readOnlyAsked is read-only mode asked for by a flag or the
	// environment (not a profile): it outlasts a switch of profile.
	readOnlyAsked bool
	// configProblem says why the config file was ignored, for the app
	// to show on its first screen.
	configProblem string
	// noPrompt never asks for the secret key (look-ups: one request, no
	// session to refresh); the environment and the keyring still give it.
	noPrompt bool
}

// The environment variables of the settings, one per flag.
const (
	envBaseURL     = "CARDTERM_BASE_URL"
	envClientKey   = "CARDTERM_CLIENT_KEY"
	envClientID    = "CARDTERM_CLIENT_ID"
	envUS          = "CARDTERM_US"
	envReadOnly    = "CARDTERM_READ_ONLY"
	envTimeout     = "CARDTERM_TIMEOUT"
	envEnvironment = "CARDTERM_ENVIRONMENT"
	envProfile     = "CARDTERM_PROFILE"
	envDebug       = "CARDTERM_DEBUG"
)

const defaultTimeout = 15 * time.Second

// gatewayFlags are the values of the gateway flags as parsed; whether a
// flag was given at all is asked of the flag set.
type gatewayFlags struct {
	baseURL, clientKey, clientID, environment string
	us, readOnly                              bool
	timeout                                   time.Duration
	profile, debugFile                        string
}

// addGatewayFlags declares the flags that choose and describe the gateway,
// shared by the app, support, get and profile add.
func addGatewayFlags(fs *pflag.FlagSet, f *gatewayFlags) {
	fs.StringVar(&f.baseURL, "base-url", "", "gateway base URL; without it cardterm starts the embedded sandbox gateway [$"+envBaseURL+"]")
	fs.StringVar(&f.clientKey, "client-key", "", "public client key (x-client-key) of your gateway credentials [$"+envClientKey+"]")
	fs.StringVar(&f.clientID, "client-id", "", "client id for orders and OAuth (default: the client key) [$"+envClientID+"]")
	fs.BoolVar(&f.us, "us", false, "route requests to the US backend (x-us-env: true) [$"+envUS+"]")
	fs.BoolVar(&f.readOnly, "read-only", false, "hide and refuse every action that changes anything (for support agents) [$"+envReadOnly+"]")
	fs.DurationVar(&f.timeout, "timeout", defaultTimeout, "time limit of one gateway request [$"+envTimeout+"]")
	fs.StringVar(&f.environment, "environment", "", "environment of a remote gateway (production, staging, sandbox); production unless set [$"+envEnvironment+"]")
}

// addProfileFlags declares --profile and --debug.
func addProfileFlags(fs *pflag.FlagSet, f *gatewayFlags) {
	fs.StringVarP(&f.profile, "profile", "p", "", "use the named profile (see cardterm profile list) [$"+envProfile+"]")
	fs.StringVar(&f.debugFile, "debug", "", "append one line per gateway request to FILE (no secrets) [$"+envDebug+"]")
}

// settingSources are where resolveOptions looks: the flags given (nil for
// none) and the environment (nil for none; the in-app switcher uses
// neither, so the chosen profile is what it gets).
type settingSources struct {
	flags *pflag.FlagSet
	given gatewayFlags
	env   func(string) string
	// profile, when set, is the profile chosen by name (the switcher,
	// profile check), over --profile and $CARDTERM_PROFILE.
	profile string
}

// profileOnly is the settings of the named profile alone: no flags, no
// environment.
func profileOnly(name string) settingSources { return settingSources{profile: name} }

// resolveOptions applies the precedence to every setting. cfg is nil when
// the config file is malformed: then no profile applies. A named profile that does not
// exist, or a malformed value in the environment, is a usage error.
func resolveOptions(src settingSources, cfg *config) (options, error) {
	if src.env == nil {
		src.env = func(string) string { return "" }
	}
	changed := func(name string) bool { return src.flags != nil && src.flags.Changed(name) }
	o := options{timeout: defaultTimeout}

	// Which profile: --profile, $CARDTERM_PROFILE, the default one.
	var p profile
	name := strings.TrimSpace(src.env(envProfile))
	if changed("profile") {
		name = src.given.profile
	}
	if src.profile != "" {
		name = src.profile
	}
	if cfg != nil {
		o.profiles = cfg.names()
		if name == "" {
			name = cfg.Default
		}
		if name != "" {
			found, ok := cfg.find(name)
			if !ok {
				return o, usageError{fmt.Sprintf("no profile called %q (there are: %s); add it with: cardterm profile add %s", name, listOrNone(o.profiles), name)}
			}
			p, o.profile = found, name
		}
	}

	str := func(flag, env, fromProfile string, given string) string {
		switch {
		case changed(flag):
			return given
		case strings.TrimSpace(src.env(env)) != "":
			return strings.TrimSpace(src.env(env))
		}
		return fromProfile
	}
	o.baseURL = str("base-url", envBaseURL, p.BaseURL, src.given.baseURL)
	o.clientKey = str("client-key", envClientKey, p.ClientKey, src.given.clientKey)
	o.clientID = str("client-id", envClientID, p.ClientID, src.given.clientID)
	o.environment = str("environment", envEnvironment, p.Environment, src.given.environment)
	o.debugFile = str("debug", envDebug, "", src.given.debugFile)

	var err error
	if o.us, err = boolSetting(changed("us"), src.given.us, src.env(envUS), envUS, p.US); err != nil {
		return o, err
	}
	if o.readOnly, err = boolSetting(changed("read-only"), src.given.readOnly, src.env(envReadOnly), envReadOnly, p.ReadOnly); err != nil {
		return o, err
	}
	if o.readOnlyAsked, err = boolSetting(changed("read-only"), src.given.readOnly, src.env(envReadOnly), envReadOnly, false); err != nil {
		return o, err
	}
	switch v := strings.TrimSpace(src.env(envTimeout)); {
	case changed("timeout"):
		o.timeout = src.given.timeout
	case v != "":
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return o, usageError{fmt.Sprintf("$%s=%q is not a duration such as 15s", envTimeout, v)}
		}
		o.timeout = d
	case p.Timeout > 0:
		o.timeout = p.Timeout
	}
	if o.timeout <= 0 {
		return o, usageError{"--timeout must be positive"}
	}
	o.support = p.Start == "support"
	return o, nil
}

// boolSetting resolves a switch: the flag when given, else the variable
// when set, else the profile.
func boolSetting(flagGiven, flagValue bool, envValue, envName string, fromProfile bool) (bool, error) {
	if flagGiven {
		return flagValue, nil
	}
	if v := strings.TrimSpace(envValue); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, usageError{fmt.Sprintf("$%s=%q is not true or false", envName, v)}
		}
		return b, nil
	}
	return fromProfile, nil
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
	var ce *configError
	if errors.As(err, &ce) {
		problem = err.Error() + " (the config file is ignored until it is fixed)"
	} else {
		problem = "reading the config file: " + err.Error() + " (profiles are unavailable)"
	}
	fmt.Fprintln(stderr, "cardterm:", problem)
	return nil, problem
}
