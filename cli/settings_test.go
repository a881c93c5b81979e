package cli

import (
	"errors"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// parseGatewayFlags parses args with the app's gateway flags.
func parseGatewayFlags(t *testing.T, args ...string) settingSources {
	t.Helper()
	cmd := &cobra.Command{Use: "test"}
	given := addSettingFlags(cmd, gatewaySettings)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	return settingSources{flags: given}
}

// profileOf is a profile with values by profile key: "base_url", "https://...".
func profileOf(name string, keyValues ...string) profile {
	p := profile{Name: name}
	for i := 0; i+1 < len(keyValues); i += 2 {
		p.set(keyValues[i], keyValues[i+1])
	}
	return p
}

func envOf(m map[string]string) func(string) string {
	return func(name string) string { return m[name] }
}

var precedenceConfig = &config{Default: "acme", Profiles: []profile{
	profileOf("acme", "base_url", "https://profile.example.com", "client_key", "ck_profile", "us", "true", "timeout", "40s", "environment", "staging"),
	profileOf("globex", "client_key", "ck_sandbox_globex", "read_only", "true", "start", "support"),
}}

func TestPrecedenceFlagThenEnvironmentThenProfile(t *testing.T) {
	// The profile alone.
	o, err := resolveOptions(parseGatewayFlags(t), precedenceConfig)
	if err != nil {
		t.Fatal(err)
	}
	if o.profile != "acme" || o.baseURL != "https://profile.example.com" || o.clientKey != "ck_profile" || !o.us ||
		o.timeout != 40*time.Second || o.environment != "staging" {
		t.Fatalf("profile: %+v", o)
	}
	// The environment beats the profile, setting by setting.
	src := parseGatewayFlags(t)
	src.env = envOf(map[string]string{envBaseURL: "https://env.example.com", envUS: "false", envTimeout: "5s", envDebug: "/tmp/d.log"})
	o, err = resolveOptions(src, precedenceConfig)
	if err != nil {
		t.Fatal(err)
	}
	if o.baseURL != "https://env.example.com" || o.us || o.timeout != 5*time.Second || o.clientKey != "ck_profile" || o.debugFile != "/tmp/d.log" {
		t.Fatalf("environment over profile: %+v", o)
	}
	// A flag beats both.
	src = parseGatewayFlags(t, "--base-url", "https://flag.example.com", "--us=true", "--timeout", "2s")
	src.env = envOf(map[string]string{envBaseURL: "https://env.example.com", envUS: "false", envTimeout: "5s"})
	o, err = resolveOptions(src, precedenceConfig)
	if err != nil {
		t.Fatal(err)
	}
	if o.baseURL != "https://flag.example.com" || !o.us || o.timeout != 2*time.Second || o.clientKey != "ck_profile" {
		t.Fatalf("flag over environment: %+v", o)
	}
	// A flag at its default value still wins when given.
	src = parseGatewayFlags(t, "--timeout", "15s")
	o, _ = resolveOptions(src, precedenceConfig)
	if o.timeout != 15*time.Second {
		t.Fatalf("--timeout 15s given: %v", o.timeout)
	}
}

func TestProfileChoiceFlagThenEnvironmentThenDefault(t *testing.T) {
	src := parseGatewayFlags(t)
	src.env = envOf(map[string]string{envProfile: "globex"})
	o, err := resolveOptions(src, precedenceConfig)
	if err != nil || o.profile != "globex" || o.baseURL != "" || o.clientKey != "ck_sandbox_globex" || !o.readOnly || !o.support {
		t.Fatalf("$CARDTERM_PROFILE: %v %+v", err, o)
	}
	src = parseGatewayFlags(t, "--profile", "acme")
	src.env = envOf(map[string]string{envProfile: "globex"})
	if o, _ := resolveOptions(src, precedenceConfig); o.profile != "acme" {
		t.Fatalf("--profile over $CARDTERM_PROFILE: %q", o.profile)
	}
	if o.profiles[0] != "acme" || o.profiles[1] != "globex" {
		t.Fatalf("the switcher's list: %v", o.profiles)
	}
	_, err = resolveOptions(parseGatewayFlags(t, "--profile", "nope"), precedenceConfig)
	var usage usageError
	if !errors.As(err, &usage) {
		t.Fatalf("an unknown profile: %v, want a usage error", err)
	}
}

func TestNoConfigMeansTheEmbeddedSandbox(t *testing.T) {
	o, err := resolveOptions(parseGatewayFlags(t), nil)
	if err != nil || o.profile != "" || o.baseURL != "" || o.timeout != defaultTimeout {
		t.Fatalf("%v %+v", err, o)
	}
	// A malformed config is nil here: a profile named in the environment
	// is then ignored, not an error, so the app still starts.
	src := parseGatewayFlags(t)
	src.env = envOf(map[string]string{envProfile: "acme"})
	if o, err := resolveOptions(src, nil); err != nil || o.baseURL != "" {
		t.Fatalf("%v %+v", err, o)
	}
}

func TestMalformedEnvironmentValuesAreUsageErrors(t *testing.T) {
	for name, value := range map[string]string{envTimeout: "soon", envUS: "yes please", envReadOnly: "2"} {
		src := parseGatewayFlags(t)
		src.env = envOf(map[string]string{name: value})
		_, err := resolveOptions(src, nil)
		var usage usageError
		if !errors.As(err, &usage) || exitCodeFor(err) != exitUsage {
			t.Errorf("$%s=%q: %v, want a usage error", name, value, err)
		}
	}
}

func TestAProfileChosenInTheAppIgnoresTheStartsFlagsAndEnvironment(t *testing.T) {
	t.Setenv(envBaseURL, "https://env.example.com")
	t.Setenv(envProfile, "acme")
	o, err := resolveOptions(profileOnly("globex"), precedenceConfig)
	if err != nil || o.profile != "globex" || o.baseURL != "" || o.clientKey != "ck_sandbox_globex" {
		t.Fatalf("%v %+v", err, o)
	}
}
