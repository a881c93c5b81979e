package signin

import (
	"context"
	"errors"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui/keymap"
)

// A failed sign-in in the user's terms, keeping the gateway's own words:
// the direct login's, the OAuth callback's and the OAuth exchange's.

// signInProblem explains a failed sign-in in the user's terms, keeping the
// gateway's own words.
func signInProblem(err error) string {
	msg := apiclient.ErrorMessage(err)
	switch {
	case errors.Is(err, context.Canceled):
		return "Sign-in cancelled."
	case apiclient.IsSettingError(err):
		// Caught before sending: the message names the setting.
		return "Cannot sign in: " + msg + "."
	case apiclient.IsStatus(err, 499):
		return "The gateway says no client key was sent: " + msg + ". Start cardterm with --client-key KEY."
	case apiclient.IsStatus(err, 498):
		return "The gateway does not recognise this client key: " + msg + ". Check --client-key and the environment it belongs to."
	case apiclient.IsUnauthorized(err):
		return "Sign-in refused: " + msg + ". Check the username and password."
	case apiclient.IsStatus(err, 0):
		return "Cannot reach the gateway: " + msg
	}
	return "Sign-in failed: " + msg
}

// callbackProblem explains a loopback answer that carried no usable code.
func callbackProblem(r screenkit.CallbackResult) string {
	switch {
	case errors.Is(r.Err, screenkit.ErrStateMismatch):
		return "Sign-in refused: the browser came back with a state that does not belong to this sign-in " +
			"(a replayed or forged answer). Nothing was signed in; press " + keymap.Key("signin.o-auth") + " to start again."
	case r.Desc != "":
		return "The gateway ended the sign-in: " + r.Desc + " (" + r.Err.Error() + "). Press " + keymap.Key("signin.o-auth") + " to try again."
	}
	return "The sign-in did not complete: " + r.Err.Error() + ". Press " + keymap.Key("signin.o-auth") + " to try again."
}

// oauthProblem explains a failed initiate or code exchange in the user's
// terms, keeping the gateway's words.
func oauthProblem(err error) string {
	msg := apiclient.ErrorMessage(err)
	var e *apiclient.Error
	isAPI := errors.As(err, &e)
	field := func(name string) bool {
		if !isAPI {
			return false
		}
		for _, f := range e.Fields {
			if f.Field == name {
				return true
			}
		}
		return false
	}
	desc := msg // the gateway's own sentence, without the field list
	if isAPI && e.Message != "" {
		desc = e.Message
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "Sign-in with the browser cancelled."
	case field("code_verifier"):
		return "The gateway refused the code: " + desc + ". The code belongs to another sign-in; press " + keymap.Key("signin.o-auth") + " to start again."
	case field("code"):
		return "The code was refused: " + desc + ". A code works once, within 10 minutes; check it or press " + keymap.Key("signin.o-auth") + " for a new one."
	case field("redirect_uri"):
		return "The gateway refused the code: " + desc + ". Press " + keymap.Key("signin.o-auth") + " to start again."
	case apiclient.IsStatus(err, 499), apiclient.IsStatus(err, 498), apiclient.IsSettingError(err):
		return signInProblem(err)
	case apiclient.IsUnauthorized(err):
		return "The gateway refused cardterm's credentials: " + msg + ". Check the client key and " + secretKeyEnv + "."
	case isAPI && e.Status == 0 && e.Err != nil:
		return "Cannot reach the gateway: " + msg
	}
	return "Signing in with the browser failed: " + msg
}
