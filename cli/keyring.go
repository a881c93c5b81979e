package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/zalando/go-keyring"
)

// Secrets in the OS keyring (macOS Keychain, Windows Credential Manager,
// the Secret Service on Linux): one entry per profile, under the service
// "cardterm" and the profile's name. Never in the config file.

const keyringService = "cardterm"

// secretStore keeps profiles' secret keys in the OS keyring and says once
// when there is none (a headless Linux box has no Secret Service).
type secretStore struct {
	warn     io.Writer
	warnOnce sync.Once
}

// errNoKeyring means the OS has no keyring service to ask.
var errNoKeyring = errors.New("no OS keyring")

// webhookAccount is the keyring account of a profile's webhook signing
// key (the secret key's account is the profile's name).
func webhookAccount(profileName string) string { return profileName + "/webhook" }

// sessionBusRequired is true where the keyring is the Secret Service,
// reached over the D-Bus session bus (Linux, the BSDs). Tests that put
// go-keyring's in-memory mock in its place turn it off.
var sessionBusRequired = runtime.GOOS != "darwin" && runtime.GOOS != "windows"

// reachable says why the keyring cannot be asked, or nil. Without a
// session bus address, the D-Bus library would launch a bus of its own
// (dbus-launch) and the Secret Service would start a keyring daemon, both
// left running after cardterm exits: on a server or over SSH, cardterm
// says there is no keyring instead.
func reachable() error {
	if sessionBusRequired && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return errors.New("no D-Bus session bus ($DBUS_SESSION_BUS_ADDRESS is not set)")
	}
	return nil
}

// get returns the entry of account (a profile's name for its secret key);
// "" and no error when none is stored, errNoKeyring when there is no
// keyring to ask.
func (s *secretStore) get(account string) (string, error) {
	if err := reachable(); err != nil {
		s.unavailable(err)
		return "", fmt.Errorf("%w: %v", errNoKeyring, err)
	}
	v, err := keyring.Get(keyringService, account)
	switch {
	case err == nil:
		return v, nil
	case errors.Is(err, keyring.ErrNotFound):
		return "", nil
	}
	s.unavailable(err)
	return "", fmt.Errorf("%w: %v", errNoKeyring, err)
}

// set stores the entry of account.
func (s *secretStore) set(account, secret string) error {
	err := reachable()
	if err == nil {
		err = keyring.Set(keyringService, account, secret)
	}
	if err != nil {
		s.unavailable(err)
		return fmt.Errorf("%w: %v", errNoKeyring, err)
	}
	return nil
}

// remove deletes the entry of account; none stored is not an error.
func (s *secretStore) remove(account string) error {
	if err := reachable(); err != nil {
		s.unavailable(err)
		return fmt.Errorf("%w: %v", errNoKeyring, err)
	}
	err := keyring.Delete(keyringService, account)
	if err == nil || errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	s.unavailable(err)
	return fmt.Errorf("%w: %v", errNoKeyring, err)
}

// unavailable says, once a run, that secrets cannot be kept and what
// happens instead.
func (s *secretStore) unavailable(err error) {
	if s.warn == nil {
		return
	}
	s.warnOnce.Do(func() {
		fmt.Fprintf(s.warn, "cardterm: the OS keyring is not available (%v); the secret key is asked for at each start, or set $%s. It is never written to the config file.\n", err, secretKeyEnv)
	})
}
