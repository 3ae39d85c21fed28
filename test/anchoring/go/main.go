// Command tlogcheck verifies a c2sp.org/tlog-proof file with the Go module proxy's own
// transparency-log code (golang.org/x/mod/sumdb/note and sumdb/tlog), written independently of
// the service: the checkpoint must be signed by the given note key and be of its origin, and
// the inclusion proof must bind the entry to the checkpoint's root.
//
// Usage: tlogcheck <log vkey> <entry hex> <proof file>
//
// The entry is the record the log hashed into its leaf (for a receipt, the 32 bytes of its
// receiptHash); tlog.RecordHash computes the RFC 6962 leaf hash SHA-256(0x00 || entry).
package main

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

const header = "c2sp.org/tlog-proof@v1"

type proof struct {
	index      int64
	hashes     tlog.RecordProof
	checkpoint string
}

// parseProof reads the file: header, optional extra line, index, hashes, empty line, checkpoint.
func parseProof(text string) (*proof, error) {
	head, checkpoint, found := strings.Cut(text, "\n\n")
	if !found {
		return nil, errors.New("no empty line before the checkpoint")
	}
	lines := strings.Split(head, "\n")
	if lines[0] != header {
		return nil, errors.New("not a tlog-proof")
	}
	lines = lines[1:]
	if len(lines) > 0 && strings.HasPrefix(lines[0], "extra ") {
		lines = lines[1:]
	}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "index ") {
		return nil, errors.New("no index line")
	}
	index, err := strconv.ParseInt(strings.TrimPrefix(lines[0], "index "), 10, 64)
	if err != nil || index < 0 {
		return nil, fmt.Errorf("bad index: %v", err)
	}
	p := &proof{index: index, checkpoint: checkpoint}
	for _, line := range lines[1:] {
		h, err := tlog.ParseHash(line)
		if err != nil {
			return nil, fmt.Errorf("bad proof hash %q: %v", line, err)
		}
		p.hashes = append(p.hashes, h)
	}
	return p, nil
}

// parseCheckpoint reads the three lines of a checkpoint body (c2sp.org/tlog-checkpoint).
func parseCheckpoint(text string) (origin string, size int64, root tlog.Hash, err error) {
	lines := strings.SplitN(text, "\n", 4)
	if len(lines) < 4 {
		return "", 0, root, errors.New("checkpoint body has fewer than three lines")
	}
	size, err = strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		return "", 0, root, err
	}
	raw, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(raw) != tlog.HashSize {
		return "", 0, root, errors.New("bad root hash")
	}
	copy(root[:], raw)
	return lines[0], size, root, nil
}

func check(vkey, entryHex, file string) error {
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return fmt.Errorf("vkey: %v", err)
	}
	entry, err := hex.DecodeString(entryHex)
	if err != nil {
		return fmt.Errorf("entry: %v", err)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	p, err := parseProof(string(text))
	if err != nil {
		return err
	}
	n, err := note.Open([]byte(p.checkpoint), note.VerifierList(verifier))
	if err != nil {
		return fmt.Errorf("checkpoint: %v", err)
	}
	origin, size, root, err := parseCheckpoint(n.Text)
	if err != nil {
		return err
	}
	if origin != verifier.Name() {
		return fmt.Errorf("checkpoint of %q, not of %q", origin, verifier.Name())
	}
	if err := tlog.CheckRecord(p.hashes, size, root, p.index, tlog.RecordHash(entry)); err != nil {
		return fmt.Errorf("inclusion: %v", err)
	}
	fmt.Printf("ok index %d size %d signatures %d unverified %d\n",
		p.index, size, len(n.Sigs), len(n.UnverifiedSigs))
	return nil
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: tlogcheck <log vkey> <entry hex> <proof file>")
		os.Exit(2)
	}
	if err := check(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "tlogcheck:", err)
		os.Exit(1)
	}
}
