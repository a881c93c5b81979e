package main

import (
	"encoding/json"
	"io"

	"cardterm/ui"
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
// --json`. An empty baseUrl is the embedded sandbox.
type profileJSON struct {
	Name        string `json:"name"`
	Default     bool   `json:"default"`
	BaseURL     string `json:"baseUrl"`
	ClientKey   string `json:"clientKey"`
	ClientID    string `json:"clientId,omitempty"`
	US          bool   `json:"us"`
	ReadOnly    bool   `json:"readOnly"`
	Timeout     string `json:"timeout"`
	Environment string `json:"environment,omitempty"`
	Start       string `json:"start"`
	// SecretKey and WebhookKey say where the secrets are: "keyring",
	// "none", "sandbox" (the embedded sandbox's own) or "unknown" (no
	// keyring to ask). Only show fills them.
	SecretKey  string `json:"secretKey,omitempty"`
	WebhookKey string `json:"webhookKey,omitempty"`
}

func newProfileJSON(p profile, isDefault bool) profileJSON {
	timeout := defaultTimeout
	if p.Timeout > 0 {
		timeout = p.Timeout
	}
	start := p.Start
	if start == "" {
		start = "sign-in"
	}
	clientKey := p.ClientKey
	if clientKey == "" {
		clientKey = clientKeyOf(p)
	}
	return profileJSON{Name: p.Name, Default: isDefault, BaseURL: p.BaseURL, ClientKey: clientKey,
		ClientID: p.ClientID, US: p.US, ReadOnly: p.ReadOnly, Timeout: timeout.String(),
		Environment: p.Environment, Start: start}
}

// withSecrets says where the profile's secrets are, asking the keyring.
func (j profileJSON) withSecrets(p profile, store *secretStore) profileJSON {
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
	j.SecretKey = "sandbox"
	if p.BaseURL != "" {
		j.SecretKey = where(p.Name)
	}
	j.WebhookKey = where(webhookAccount(p.Name))
	return j
}

// profileCheckJSON is `profile check --json` when the check passes.
type profileCheckJSON struct {
	Profile           string `json:"profile"`
	Gateway           string `json:"gateway"`
	ClientKeyAccepted bool   `json:"clientKeyAccepted"`
}

// writeJSON prints v indented, one value, ending in a newline. Text from
// the config file or a gateway is escaped as the look-ups' is
// (ui.EscapeInvisible), so it cannot drive the terminal.
func writeJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(ui.EscapeInvisible(data), '\n'))
	return err
}
