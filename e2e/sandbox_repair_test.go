package e2e

import (
	"bufio"
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

	"cardterm/sandbox"
)

// A bit flipped in a middle journal frame: `cardterm sandbox --data` is
// refused with the file and the offset and changes nothing (the journal's
// checksum before and after); `cardterm sandbox repair` says what it
// kept and set aside, and the sandbox then starts.
func TestSandboxDataRefusesADamagedJournalAndRepairMendsIt(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "sandbox.journal.1")
	var frames []byte
	var offsets []int
	for i := range 7 {
		offsets = append(offsets, len(frames))
		frames = append(frames, journalFrame(t, fmt.Sprintf(`{"pin/card-%d":null}`, i))...)
	}
	frames[offsets[2]+14] ^= 0x04
	if err := os.WriteFile(journal, frames, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(frames)
	out, err := binaryCommand(t, "sandbox", "--addr", "127.0.0.1:0", "--data", dir).CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitRefused {
		t.Fatalf("exit %v, want %d; output:\n%s", err, exitRefused, out)
	}
	if want := fmt.Sprintf("%s: frame 3 at byte %d: the checksum", journal, offsets[2]); !strings.Contains(string(out), want) {
		t.Fatalf("the refusal does not say %q:\n%s", want, out)
	}
	if got, _ := os.ReadFile(journal); sha256.Sum256(got) != sum {
		t.Fatal("the refused journal was changed")
	}
	if _, err := os.Stat(filepath.Join(dir, sandbox.StoreFile)); err == nil {
		t.Fatal("a refused start created the database")
	}
	out, err = binaryCommand(t, "sandbox", "repair", "--data", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("repair: %v\n%s", err, out)
	}
	for _, want := range []string{"kept      " + journal + ": 2 frames", fmt.Sprintf("set aside %s from byte %d", journal, offsets[2]), "set-aside"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the repair's report lacks %q:\n%s", want, out)
		}
	}
	sb := binaryCommand(t, "sandbox", "--addr", "127.0.0.1:0", "--data", dir)
	stdout, _ := sb.StdoutPipe()
	if err := sb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Process.Kill(); _ = sb.Wait() })
	read := bufio.NewReader(stdout)
	var head string
	for range 3 {
		line, _ := read.ReadString('\n')
		head += line
	}
	if !strings.Contains(head, "Base URL     http://127.0.0.1:") {
		t.Fatalf("the repaired directory did not start: %q", head)
	}
}

// journalFrame is one journal frame around payload, as the sandbox
// writes it (magic, length, CRC-32C).
func journalFrame(t *testing.T, payload string) []byte {
	t.Helper()
	frame := []byte("CTJ1")
	frame = endian.LittleEndian.AppendUint32(frame, uint32(len(payload)))
	frame = endian.LittleEndian.AppendUint32(frame, crc32.Checksum([]byte(payload), crc32.MakeTable(crc32.Castagnoli)))
	return append(frame, payload...)
}
