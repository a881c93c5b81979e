package cli

import (
	"context"

	"cardterm/apiclient"
	"cardterm/domain/profiledata"
)

// The card holder's own data (budgets, guard rules, notes) lives in the
// profile's folder; the commands that read it sign in as the holder.

// holderDir is the profile's folder for the holder's own data.
func holderDir(o options) string { return profiledata.Dir(o.profileShown()) }

// holderSession is a signed-in holder: the client, who signed in, and
// what ends it (sign-out, the gateway closed).
type holderSession struct {
	client *apiclient.Client
	user   string
	end    func()
}

// signInHolder chooses the gateway and signs in as $CARDTERM_USERNAME
// (on the embedded sandbox, the first demo user). It never prompts.
func signInHolder(ctx context.Context, o options, std streams) (*holderSession, error) {
	o.noPrompt, o.secrets = true, nil
	gw, err := chooseGateway(o, std.stdin, std.stderr)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	client := apiclient.New(gw.cfg)
	user, signOut, err := signIn(ctx, client, gw, "it")
	if err != nil {
		gw.close()
		return nil, err
	}
	return &holderSession{client: client, user: user, end: func() { signOut(); gw.close() }}, nil
}
