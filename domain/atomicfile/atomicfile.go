// Package atomicfile writes a file whole or not at all: through a
// temporary file in the same folder, synced, then renamed over the old
// one, so a reader never finds half a file and a crash leaves the old
// one or the new. The temporary file is created owner-only (0600) and
// keeps that mode.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write writes path with write, through ".NAME.*" beside it.
func Write(path string, write func(io.Writer) error) error {
	return WriteVia(path, "."+filepath.Base(path)+".*", write)
}

// WriteVia is Write with the temporary file's name pattern given (as
// os.CreateTemp takes it), for a folder that recognises what a crash left.
func WriteVia(path, tempPattern string, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPattern)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Bytes is a write of data, for Write and WriteVia.
func Bytes(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}
