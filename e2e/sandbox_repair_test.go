package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	endian "encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// A bit flipped in a record of the store a killed sandbox left:
// `cardterm sandbox --data` is refused with the file, the page and why,
// and changes nothing (the file's checksum before and after); `cardterm
// sandbox repair` says what it lost, kept and set aside, and the sandbox
// then starts with every other change.
func TestSandboxDataRefusesADamagedStoreAndRepairMendsIt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	ctx := context.Background()
	first := startSandboxProcess(t, "--data", dir)
	alice := first.signedIn(t, "alice@demo.test")
	if err := alice.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	const name, address = "Damaged Beneficiary", "0x4444444444444444444444444444444444444444"
	if err := alice.AddWhitelist(ctx, []apiclient.NewWhitelistEntry{{Currency: "usdc", Name: name,
		BeneficiaryFirstName: "Ada", BeneficiaryLastName: "Lovelace", WalletAddress: address}}); err != nil {
		t.Fatal(err)
	}
	first.kill()

	path := filepath.Join(dir, sandbox.StoreFile)
	data, _ := os.ReadFile(path)
	at := bytes.Index(data, []byte(name))
	if at < 0 || bytes.Count(data, []byte(name)) != 1 {
		t.Fatalf("the entry is %d times in the file, want once", bytes.Count(data, []byte(name)))
	}
	data[at] ^= 0x20 // D becomes d: still JSON, no longer what was written
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	out, err := binaryCommand(t, "sandbox", "--addr", "127.0.0.1:0", "--data", dir).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitRefused {
		t.Fatalf("exit %v, want %d; output:\n%s", err, exitRefused, out)
	}
	for _, want := range []string{path + ": the file is damaged at byte ", fmt.Sprintf("(page %d), in record \"whitelist/", at/4096),
		"the checksum does not match", "cardterm sandbox repair --data " + dir} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
	if got, _ := os.ReadFile(path); sha256.Sum256(got) != sum {
		t.Fatal("the refused store was changed")
	}

	out, err = binaryCommand(t, "sandbox", "repair", "--data", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("repair: %v\n%s", err, out)
	}
	for _, want := range []string{"lost      record \"whitelist/", "the checksum does not match", "kept      ",
		"set aside " + path + " as it was, now " + filepath.Join(dir, sandbox.SetAsideDir)} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the repair's report lacks %q:\n%s", want, out)
		}
	}
	second := startSandboxProcess(t, "--data", dir)
	alice = second.signedIn(t, "alice@demo.test")
	if card, err := alice.CardStatus(ctx); err != nil || card.Status != "FROZEN" {
		t.Errorf("alice's card after the repair: %+v, %v; want FROZEN", card, err)
	}
	if entries, err := alice.Whitelist(ctx, "usdc"); err != nil || containsEntry(entries, address) || len(entries) == 0 {
		t.Errorf("whitelist after the repair: %d entries, %v; want the seeded ones without the damaged one", len(entries), err)
	}
}

// A record holding terminal controls (a member name with an OSC title
// sequence, under a sound checksum) is refused with its reason, and the
// reason reaches the terminal without the controls.
func TestSandboxDataRefusalsAreSafeForATerminal(t *testing.T) {
	dir := t.TempDir()
	st, err := sandbox.OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := bolt.Open(filepath.Join(dir, sandbox.StoreFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	key, value := []byte("pin/card-x"), []byte(`{"cardId":"card-x","pin":"1379","\u001b]0;owned\u0007":1}`)
	table := crc32.MakeTable(crc32.Castagnoli)
	sealed := endian.LittleEndian.AppendUint32(nil, crc32.Update(crc32.Checksum(key, table), table, value))
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("state")).Put(key, append(sealed, value...)) })
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"sandbox", "--addr", "127.0.0.1:0", "--data", dir}, {"sandbox", "export", "-", "--data", dir}} {
		out, _ := binaryCommand(t, args...).CombinedOutput()
		if !strings.Contains(string(out), "unknown field") || !strings.Contains(string(out), "damaged at byte") || bytes.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s: %q; want the refusal without terminal controls", args[1], out)
		}
	}
}
