package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"cardterm/domain/fileerror"
	"cardterm/sandbox"
	"cardterm/ui/sanitize"
)

// `cardterm profile list|add|use|remove|show`: named gateway settings in
// the config file, their secret keys in the OS keyring.

func newProfileCommand(std streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "Manage profiles: named gateways and tenants",
		Long: `A profile names one gateway and tenant: base URL, client key, client id, US
backend, read-only, timeout, environment and where to start. Profiles live in
` + "`$XDG_CONFIG_HOME/cardterm/config.yaml`" + ` (written owner-only, 0600); a profile's
secret key lives in the OS keyring, never in that file. A profile without a
base URL runs on the embedded sandbox as the tenant of its client key.`,
		Example: `  cardterm profile add acme --base-url https://gateway.example.com \
      --client-key ck_live_... --read-only
  # the embedded sandbox as that tenant
  cardterm profile add globex --client-key ck_sandbox_globex
  cardterm profile use acme
  cardterm profile list`,
	}
	cmd.AddCommand(newProfileListCommand(), newProfileAddCommand(std), newProfileUseCommand(),
		newProfileRemoveCommand(std), newProfileShowCommand(std), newProfileCheckCommand(std))
	return cmd
}

// loadConfigStrict reads the config file for a command that changes or
// shows it: a malformed file is an error (2), never overwritten.
func loadConfigStrict() (*config, error) {
	cfg, err := loadConfig(configPath())
	var ce *fileerror.Error
	if errors.As(err, &ce) {
		return nil, usageError{ce.Error() + "\nfix the file by hand; it is left as it is"}
	}
	return cfg, err
}

// onConfig makes the RunE of a command that changes or shows the profiles:
// it reads the configuration strictly and hands it to run.
func onConfig(run func(cmd *cobra.Command, args []string, cfg *config) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		cfg, err := loadConfigStrict()
		if err != nil {
			return err
		}
		return run(cmd, args, cfg)
	}
}

// completeProfileNames completes a profile name argument from the config.
func completeProfileNames(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	cfg, err := loadConfig(configPath())
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return cfg.names(), cobra.ShellCompDirectiveNoFileComp
}

func newProfileListCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the profiles; * marks the default",
		Args:    cobra.NoArgs,
		RunE: onConfig(func(cmd *cobra.Command, _ []string, cfg *config) error {
			out := cmd.OutOrStdout()
			if asJSON {
				list := []map[string]any{}
				for _, p := range cfg.Profiles {
					list = append(list, profileJSON(p, p.Name == cfg.Default))
				}
				return writeJSON(out, list)
			}
			if len(cfg.Profiles) == 0 {
				fmt.Fprintf(out, "No profiles yet (%s). Add one with: cardterm profile add NAME --base-url URL --client-key KEY\n", configPath())
				return nil
			}
			w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "\tNAME\tGATEWAY\tCLIENT KEY\tMODE")
			for _, p := range cfg.Profiles {
				mark := ""
				if p.Name == cfg.Default {
					mark = "*"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", mark, p.Name, sanitize.Text(gatewayOf(p)), sanitize.Text(clientKeyOf(p)), modeOf(p))
			}
			return w.Flush()
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the profiles as a JSON array")
	return cmd
}

// gatewayOf is the profile's gateway in a word or a URL.
func gatewayOf(p profile) string {
	return settingNamed("base-url").describe(p.get("base_url"))
}

// clientKeyOf is the profile's client key, or the default one.
func clientKeyOf(p profile) string {
	if v := p.get("client_key"); v != "" {
		return v
	}
	return sandbox.DemoClientKey + " (default)"
}

// modeOf names the profile's switches that are on and its choices that
// are set: "US backend,read-only,staging,support".
func modeOf(p profile) string {
	var m []string
	for _, s := range settings {
		switch v := p.get(s.key); {
		case s.kind == switchSetting && v == "true":
			m = append(m, s.label)
		case s.kind == choiceSetting && v != "" && v != s.initial:
			m = append(m, v)
		}
	}
	return strings.Join(m, ",")
}

func newProfileAddCommand(std streams) *cobra.Command {
	var given givenFlags
	var makeDefault, replace, noSecret, withWebhookKey bool
	cmd := &cobra.Command{
		Use:   "add NAME",
		Short: "Add a profile (its secret key goes to the OS keyring)",
		Long: `Add a profile with the app's own flag names. For a remote gateway the secret
key is taken from $` + secretKeyEnv + ` or asked for with a masked prompt, and kept in
the OS keyring; where there is no keyring, cardterm says so and asks at each
start instead. It is never written to the config file.`,
		Example: `  cardterm profile add acme --base-url https://gateway.example.com \
      --client-key ck_live_... --default
  cardterm profile add acme-support \
      --base-url https://gateway.example.com \
      --client-key ck_live_... --read-only --start support
  cardterm profile add globex --client-key ck_sandbox_globex`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := checkProfileName(name); err != nil {
				return usageError{err.Error()}
			}
			// The flags were checked as they were read (settingFlag).
			p := profile{Name: name}
			for _, s := range settings {
				if v, ok := given[s.name]; ok && s.key != "" {
					p.set(s.key, v)
				}
			}
			cfg, err := loadConfigStrict()
			if err != nil {
				return err
			}
			if _, exists := cfg.find(name); exists && !replace {
				return usageError{fmt.Sprintf("a profile called %q exists; --replace to overwrite it", name)}
			}
			cfg.remove(name)
			cfg.Profiles = append(cfg.Profiles, p)
			out := cmd.OutOrStdout()
			previous := cfg.Default
			if becomesDefault(cmd, std, name, previous, makeDefault, len(cfg.Profiles) == 1) {
				cfg.Default = name
			}
			if err := saveConfig(configPath(), cfg); err != nil {
				return err
			}
			fmt.Fprintf(out, "Added profile %q to %s.\n", name, configPath())
			sayDefault(out, name, previous, cfg.Default)
			store := &secretStore{warn: std.stderr}
			if p.get("base_url") != "" && !noSecret {
				storeSecretKey(cmd, name, store)
			}
			if withWebhookKey {
				storeWebhookKey(cmd, name, store)
			}
			return nil
		},
	}
	given = addSettingFlags(cmd, profileSettings)
	fs := cmd.Flags()
	fs.BoolVar(&makeDefault, "default", false, "make it the default profile (--default=false: do not; without the flag, a terminal is asked, and the first profile becomes the default)")
	fs.BoolVar(&replace, "replace", false, "overwrite a profile of that name")
	fs.BoolVar(&noSecret, "no-secret", false, "do not ask for the secret key")
	fs.BoolVar(&withWebhookKey, "webhook-key", false, "also keep a webhook signing key (from $"+webhookKeyEnv+" or a masked prompt) for cardterm listen and webhook verify")
	fs.SortFlags = false
	return cmd
}

// storeSecretKey puts the profile's secret key in the keyring, from the
// environment or a masked prompt; it says what happened and never fails
// the command (the key can still be given at each start).
func storeSecretKey(cmd *cobra.Command, name string, store *secretStore) {
	out := cmd.OutOrStdout()
	key, err := secretFromEnvOrPrompt(cmd, secretKeyEnv, fmt.Sprintf("Secret key of %q (x-secret-key; enter to skip): ", name))
	if err != nil {
		fmt.Fprintf(out, "No secret key stored (%v); it is asked for at start, or set $%s.\n", err, secretKeyEnv)
		return
	}
	if key == "" {
		fmt.Fprintf(out, "No secret key stored; it is asked for at start, or set $%s.\n", secretKeyEnv)
		return
	}
	if err := store.set(name, key); err != nil {
		return // store.set has said why
	}
	fmt.Fprintf(out, "The secret key is in the OS keyring (service %q, account %q).\n", keyringService, name)
}

// storeWebhookKey puts a webhook signing key in the keyring for the
// profile, from $CARDTERM_WEBHOOK_KEY or a masked prompt.
func storeWebhookKey(cmd *cobra.Command, name string, store *secretStore) {
	out := cmd.OutOrStdout()
	key, err := secretFromEnvOrPrompt(cmd, webhookKeyEnv, fmt.Sprintf("Webhook signing key of %q (enter to skip): ", name))
	if err != nil || key == "" {
		fmt.Fprintf(out, "No webhook signing key stored.\n")
		return
	}
	if err := store.set(webhookAccount(name), key); err != nil {
		return // store.set has said why
	}
	fmt.Fprintf(out, "The webhook signing key is in the OS keyring (account %q): cardterm listen and webhook verify use it with this profile.\n", webhookAccount(name))
}

// named is the profile a command's optional NAME argument picks (the
// default one without it), or the usage error that lists the names there
// are.
func (c *config) named(args []string) (profile, error) {
	name := c.Default
	if len(args) == 1 {
		name = args[0]
	}
	p, ok := c.find(name)
	if !ok {
		return profile{}, c.noProfile(name)
	}
	return p, nil
}

// noProfile is the usage error for a profile name that is not in the
// configuration; it lists the names there are.
func (c *config) noProfile(name string) error {
	return usageError{fmt.Sprintf("no profile called %q (there are: %s)", name, listOrNone(c.names()))}
}

// remove drops the profile called name, and the default if it was that.
func (c *config) remove(name string) bool {
	for i, p := range c.Profiles {
		if p.Name == name {
			c.Profiles = append(c.Profiles[:i], c.Profiles[i+1:]...)
			if c.Default == name {
				c.Default = ""
			}
			return true
		}
	}
	return false
}

func newProfileUseCommand() *cobra.Command {
	return &cobra.Command{
		Use:               "use NAME",
		Short:             "Make a profile the default",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeProfileNames,
		RunE: onConfig(func(cmd *cobra.Command, args []string, cfg *config) error {
			if _, err := cfg.named(args); err != nil {
				return err
			}
			cfg.Default = args[0]
			if err := saveConfig(configPath(), cfg); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "The default profile is now %q.\n", args[0])
			return nil
		}),
	}
}

func newProfileRemoveCommand(std streams) *cobra.Command {
	return &cobra.Command{
		Use:               "remove NAME",
		Aliases:           []string{"rm"},
		Short:             "Remove a profile and its secret key",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeProfileNames,
		RunE: onConfig(func(cmd *cobra.Command, args []string, cfg *config) error {
			if !cfg.remove(args[0]) {
				return cfg.noProfile(args[0])
			}
			if err := saveConfig(configPath(), cfg); err != nil {
				return err
			}
			store := &secretStore{warn: std.stderr}
			_ = store.remove(args[0])
			_ = store.remove(webhookAccount(args[0]))
			fmt.Fprintf(cmd.OutOrStdout(), "Removed profile %q.\n", args[0])
			return nil
		}),
	}
}

func newProfileShowCommand(std streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:               "show [NAME]",
		Short:             "Show a profile's settings (the default one without NAME); never the secret",
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeProfileNames,
		RunE: onConfig(func(cmd *cobra.Command, args []string, cfg *config) error {
			p, err := cfg.named(args)
			if err != nil {
				return err
			}
			store := &secretStore{warn: std.stderr}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), withSecrets(profileJSON(p, p.Name == cfg.Default), p, store))
			}
			showProfile(cmd.OutOrStdout(), p, p.Name == cfg.Default, store)
			return nil
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the profile as a JSON object (where its secrets are, never what)")
	return cmd
}

// showProfile prints one profile, a line per setting it can hold (the
// settings table), saying where its secret key is but never what it is.
func showProfile(w io.Writer, p profile, isDefault bool, store *secretStore) {
	secret := "not stored (asked for at start, or $" + secretKeyEnv + ")"
	if p.get("base_url") == "" {
		secret = "the embedded sandbox's own"
	} else if v, err := store.get(p.Name); err != nil {
		secret = "unknown: the OS keyring is not available"
	} else if v != "" {
		secret = "in the OS keyring"
	}
	webhook := "not stored"
	if v, err := store.get(webhookAccount(p.Name)); err != nil {
		webhook = "unknown: the OS keyring is not available"
	} else if v != "" {
		webhook = "in the OS keyring"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', 0)
	fmt.Fprintf(tw, "name:\t%s\n", p.Name)
	fmt.Fprintf(tw, "default:\t%t\n", isDefault)
	for _, s := range settings {
		if s.key == "" {
			continue
		}
		value := s.describe(p.get(s.key))
		if s.key == "client_key" {
			value = clientKeyOf(p)
		}
		fmt.Fprintf(tw, "%s:\t%s\n", s.label, sanitize.Text(value))
	}
	fmt.Fprintf(tw, "secret key:\t%s\n", secret)
	fmt.Fprintf(tw, "webhook key:\t%s\n", webhook)
	_ = tw.Flush()
}
