package apiclient

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// Missing or wrong settings are caught before a request is sent: a gateway
// would answer 499 or 401 without saying which setting is missing, and an
// undocumented chain network would be sent as typed.

// errSetting tags an Error caused by our own configuration, not the gateway.
var errSetting = errors.New("a setting is missing or wrong")

// IsSettingError reports whether err says a setting is missing or wrong, so
// a command can exit with the usage code and a screen can point at the
// setting instead of blaming the gateway.
func IsSettingError(err error) bool { return errors.Is(err, errSetting) }

// settingError is an Error that names the setting to change.
func settingError(op, message string) *Error {
	return &Error{Op: op, Message: message, Err: errSetting}
}

// checkSettings refuses a request whose family needs a credential that is
// not configured.
func (c *Client) checkSettings(r request) error {
	switch {
	case (r.family == familyUser || r.family == familyClient || r.family == familySecret) && c.cfg.ClientKey == "":
		return settingError(r.op, "no client key is configured: set --client-key, CARDTERM_CLIENT_KEY or the profile's client key")
	case r.family == familyOrder && c.clientID() == "":
		return settingError(r.op, "no client id is configured: set --client-id, CARDTERM_CLIENT_ID or the profile's client id (the order endpoints' X-Client-ID; the client key is not one)")
	case r.family == familySecret && c.secretKey() == "":
		return errNoSecret(r.op)
	}
	return nil
}

// checkChainNetwork refuses a network the interface does not document (""
// asks for all of them).
func checkChainNetwork(network string) error {
	if network == "" || slices.Contains(ChainNetworks, network) {
		return nil
	}
	return settingError("ChainConfig", "network "+strconv.Quote(network)+" is not one the gateway documents; use one of "+strings.Join(ChainNetworks, ", ")+", or none for all")
}
