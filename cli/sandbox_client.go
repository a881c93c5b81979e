package cli

import (
	"io"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// defaultSandboxURL is where `cardterm sandbox` listens by default.
const defaultSandboxURL = "http://127.0.0.1:8080"

// sandboxClient is the client of a command that talks to a running
// sandbox (trigger, resend, logs), from the settings like every other
// command's: the sandbox at defaultSandboxURL and its demo tenant unless
// they say otherwise.
func sandboxClient(o options, stderr io.Writer) (client *apiclient.Client, baseURL string, close func(), err error) {
	cfg, closeLog, err := clientConfig(o)
	if err != nil {
		return nil, "", nil, err
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = defaultSandboxURL
	}
	if cfg.ClientKey == "" {
		cfg.ClientKey = sandbox.DemoClientKey
	}
	cfg.SecretKey = secretKey(o, nil, stderr, false)
	if cred, ok := sandbox.CredentialFor(cfg.ClientKey); ok && cfg.SecretKey == "" {
		cfg.SecretKey = cred.SecretKey
	}
	return apiclient.New(cfg), cfg.BaseURL, closeLog, nil
}
