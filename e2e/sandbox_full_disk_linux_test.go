package e2e

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// limitFileSize sets the largest file process pid may write (prlimit(2)
// on RLIMIT_FSIZE's soft limit, as `ulimit -S -f` does; 0: back to the
// hard limit): a write past it fails as on a full disk (EFBIG; Go ignores
// SIGXFSZ).
func limitFileSize(t *testing.T, pid int, size uint64) {
	t.Helper()
	var limit syscall.Rlimit
	prlimit := func(set, get *syscall.Rlimit) {
		if _, _, errno := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_FSIZE,
			uintptr(unsafe.Pointer(set)), uintptr(unsafe.Pointer(get)), 0, 0); errno != 0 {
			t.Fatalf("prlimit: %v", errno)
		}
	}
	prlimit(nil, &limit)
	limit.Cur = limit.Max
	if size > 0 {
		limit.Cur = min(size, limit.Max)
	}
	prlimit(&limit, nil)
}

// The disk fills up under a running sandbox: a change whose commit does
// not fit is answered 500 and saying so; the store is not damaged (the
// restart checks every page and record), every change answered 200 is
// there after kill -9, and once there is room again changes are kept.
func TestSandboxDataOnAFullDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	ctx := context.Background()
	p := startSandboxProcess(t, "--data", dir)
	alice := p.signedIn(t, "alice@demo.test")
	if err := alice.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	before, _ := alice.Whitelist(ctx, "usdc")
	info, err := os.Stat(filepath.Join(dir, sandbox.StoreFile))
	if err != nil {
		t.Fatal(err)
	}
	limitFileSize(t, p.cmd.Process.Pid, uint64(info.Size()))
	req, _ := http.NewRequest("POST", p.url+"/sandbox/whitelist",
		strings.NewReader(`{"user":"alice@demo.test","currency":"usdc","count":20000}`))
	req.Header.Set("x-client-key", sandbox.DemoClientKey)
	req.Header.Set("x-secret-key", sandbox.DemoSecretKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body := make([]byte, 4096)
	n, _ := resp.Body.Read(body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError || !strings.Contains(string(body[:n]), "could not save its state") {
		t.Fatalf("seeding 20,000 entries on a full disk: %d %s; want 500 saying the state was not saved", resp.StatusCode, body[:n])
	}
	t.Logf("on a full disk: %d %s", resp.StatusCode, body[:n])

	limitFileSize(t, p.cmd.Process.Pid, 0) // room again
	const address = "0x5555555555555555555555555555555555555555"
	if err := alice.AddWhitelist(ctx, []apiclient.NewWhitelistEntry{{Currency: "usdc", Name: "After the disk filled",
		BeneficiaryFirstName: "Ada", BeneficiaryLastName: "Lovelace", WalletAddress: address}}); err != nil {
		t.Fatalf("a change once there is room again: %v", err)
	}
	p.kill()

	again := startSandboxProcess(t, "--data", dir)
	alice = again.signedIn(t, "alice@demo.test")
	if card, err := alice.CardStatus(ctx); err != nil || card.Status != "FROZEN" {
		t.Errorf("alice's card after the full disk and kill -9: %+v, %v; want FROZEN", card, err)
	}
	entries, err := alice.Whitelist(ctx, "usdc")
	if err != nil || !containsEntry(entries, address) || len(entries) <= len(before) {
		t.Errorf("whitelist after the restart: %d entries (%d before), %v; want the one added once there was room", len(entries), len(before), err)
	}
}
