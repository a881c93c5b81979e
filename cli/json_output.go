package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"cardterm/sandbox"
	"cardterm/ui/sanitize"

	"github.com/itchyny/gojq"
)

// --json on the commands that print facts (version, profile list, show
// and check): the same facts as one JSON value, for scripts. Secrets are
// never in them; where one is kept is.

// versionJSON is `cardterm version --json`.
type versionJSON struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Modified bool   `json:"modified"`
	Date     string `json:"date"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

func (v buildVersion) json() versionJSON {
	return versionJSON{Version: v.Version, Commit: v.Commit, Modified: v.Modified, Date: v.Date, Go: v.Go, Platform: v.Platform}
}

// profileJSON is one profile in `profile list --json` and `profile show
// --json`: its name, whether it is the default, and every setting a
// profile holds (the settings table) under its key in config.yaml, with
// the value in effect: the profile's, else the default ("" base_url is
// the embedded sandbox). A switch is true or false, anything else text.
// show adds secret_key and webhook_key: where each is kept ("keyring",
// "none", "sandbox" for the embedded sandbox's own, "unknown" when there
// is no keyring to ask), never what it is.
func profileJSON(p profile, isDefault bool) map[string]any {
	out := map[string]any{"name": p.Name, "default": isDefault}
	for _, s := range settings {
		if s.key == "" {
			continue
		}
		value := p.get(s.key)
		if value == "" {
			value = s.initial
		}
		if s.key == "client_key" && value == "" {
			value = sandbox.DemoClientKey
		}
		switch {
		case s.kind == switchSetting && value == "":
			out[s.key] = nil // unset, with a default of its own (require_ticket: production)
		case s.kind == switchSetting:
			out[s.key] = value == "true"
		default:
			out[s.key] = value
		}
	}
	return out
}

// withSecrets adds to a profile's JSON where its secrets are, asking the
// keyring.
func withSecrets(out map[string]any, p profile, store *secretStore) map[string]any {
	where := func(account string) string {
		v, err := store.get(account)
		switch {
		case err != nil:
			return "unknown"
		case v != "":
			return "keyring"
		}
		return "none"
	}
	out["secret_key"] = "sandbox"
	if p.get("base_url") != "" {
		out["secret_key"] = where(p.Name)
	}
	out["webhook_key"] = where(webhookAccount(p.Name))
	return out
}

// profileCheckJSON is `profile check --json` when the check passes.
type profileCheckJSON struct {
	Profile           string `json:"profile"`
	Gateway           string `json:"gateway"`
	ClientKeyAccepted bool   `json:"clientKeyAccepted"`
}

// writeJSON prints v indented, one value, ending in a newline. Text from
// the config file or a gateway is escaped as the look-ups' is
// (sanitize.JSON), so it cannot drive the terminal.
func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(sanitize.JSON(data), '\n'))
	return err
}

// jqError is the message of a --jq program that failed: error("...") and
// halt_error put the answer's own text in it, sanitized like any other.
func jqError(err error) error {
	return fmt.Errorf("--jq: %s", sanitize.Multiline(err.Error()))
}

// compileJQ compiles a --jq expression (api, get), a usage error when it
// does not parse.
func compileJQ(expression string) (*gojq.Code, error) {
	query, err := gojq.Parse(expression)
	if err != nil {
		return nil, usageError{fmt.Sprintf("--jq %q: %v", expression, err)}
	}
	code, err := gojq.Compile(query)
	if err != nil {
		return nil, usageError{fmt.Sprintf("--jq %q: %v", expression, err)}
	}
	return code, nil
}
