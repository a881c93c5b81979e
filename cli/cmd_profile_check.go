package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/ui/sanitize"
)

// newProfileCheckCommand is `cardterm profile check [NAME]`: does the
// profile reach its gateway, and is its client key accepted? It asks for
// the consent status of a user id no tenant has, which needs only the
// client key: 404 means the key was accepted. Exit 0, 3 (key refused),
// 4 (no answer) or 1 (any other refusal).
func newProfileCheckCommand(std streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:               "check [NAME]",
		Short:             "Check that a profile reaches its gateway and its client key is accepted",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeProfileNames,
		Example: `  cardterm profile check acme && cardterm --profile acme
  # 3: the client key was refused, 4: no answer
  cardterm profile check acme; echo $?`,
		RunE: onConfig(func(cmd *cobra.Command, args []string, cfg *config) error {
			p, err := cfg.named(args)
			if err != nil {
				return err
			}
			o, err := resolveOptions(profileOnly(p.Name), cfg)
			if err != nil {
				return err
			}
			o.support = true // reads only: never prompts for the secret key
			o.json = asJSON
			return checkProfile(cmd.Context(), o, std)
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON; a refusal as the gateway sent it")
	return cmd
}

// checkProfile sends the one client-key request and says what it means.
func checkProfile(ctx context.Context, o options, std streams) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	gw, err := chooseGateway(o, nil, std.stderr)
	if err != nil {
		return err
	}
	defer gw.close()
	client := apiclient.New(gw.cfg)
	ctx, cancel := context.WithTimeout(ctx, o.timeout+time.Second)
	defer cancel()
	var refusal []byte
	_, err = client.UserConsent(apiclient.CaptureBody(ctx, &refusal), "cardterm-profile-check", false)
	if err != nil && !apiclient.IsNotFound(err) {
		if o.json && len(bytes.TrimSpace(refusal)) > 0 {
			if out, jsonErr := indentBody(refusal); jsonErr == nil {
				_, _ = std.stdout.Write(out)
			}
		}
		return explainedError{
			msg: fmt.Sprintf("profile %q (%s): %s", o.profile, sanitize.Text(gw.label), sanitize.Text(apiclient.ErrorMessage(err))),
			err: err,
		}
	}
	if o.json {
		return writeJSON(std.stdout, profileCheckJSON{Profile: o.profile, Gateway: gw.label, ClientKeyAccepted: true})
	}
	fmt.Fprintf(std.stdout, "Profile %q reaches %s and its client key is accepted.\n", o.profile, sanitize.Text(gw.label))
	return nil
}

// explainedError is err with a message written for the user; the exit code
// still comes from err.
type explainedError struct {
	msg string
	err error
}

func (e explainedError) Error() string { return e.msg }
func (e explainedError) Unwrap() error { return e.err }
