// Command cardterm is a terminal app for the Card and Wallet Gateway: card
// holders manage their card and wallets, support agents inspect consents and
// webhooks, and partner demos run it offline on an embedded sandbox gateway.
package main

import (
	"os"

	"cardterm/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
