//go:build linked

package main

// Built with -tags linked, emptytea links every package cardterm links
// and initialises them as cardterm does, before main; what it draws is
// the same. The start-up benchmark times it beside emptytea and cardterm
// to tell what the linked packages cost from what cardterm does after
// main.
import _ "cardterm/cli"
