// Package oracle is what the differential oracles gotemplate and helmfiletemplate share: their case
// files, the bound on one case's output, and the results they print.
//
// A case file is a sequence of records of NUL-terminated fields. A result is "ok <bytes>\n<output>\n"
// or "error\n" (the message goes to stderr when verbose).
package oracle

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
)

// MaxOutput bounds one case's output, as the C++ engine does (ExecOptions.max_output): a larger one is an error.
const MaxOutput = 16 << 20

// LimitedBuffer is a bytes.Buffer whose Write fails rather than grow past MaxOutput.
type LimitedBuffer struct {
	bytes.Buffer
}

func (b *LimitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > MaxOutput {
		return 0, fmt.Errorf("output exceeds %d bytes", MaxOutput)
	}
	return b.Buffer.Write(p)
}

// Format says what a case file holds: records of Fields fields each, called Records in errors
// ("environment/template pairs").
type Format struct {
	Fields  int
	Records string
}

// RunFile renders every case of the case file at path with render and prints one result per case to
// stdout; with verbose, each error also goes to stderr as "case <index>: <message>". A file it cannot
// read, or not in format f, ends the process with status 2.
func RunFile(path string, f Format, verbose bool, render func(c []string) (string, error)) {
	cases, err := readCases(path, f)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	for i, c := range cases {
		out, err := render(c)
		if err != nil {
			if verbose {
				fmt.Fprintf(os.Stderr, "case %d: %v\n", i, err)
			}
			w.WriteString("error\n")
			continue
		}
		fmt.Fprintf(w, "ok %d\n%s\n", len(out), out)
	}
	w.Flush()
}

func readCases(path string, f Format) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	parts := bytes.Split(data, []byte{0})
	if len(parts)%f.Fields != 1 || len(parts[len(parts)-1]) != 0 {
		return nil, fmt.Errorf("%s: not a sequence of NUL-terminated %s", path, f.Records)
	}
	var cases [][]string
	for i := 0; i+f.Fields-1 < len(parts); i += f.Fields {
		cases = append(cases, stringsOf(parts[i:i+f.Fields]))
	}
	return cases, nil
}

func stringsOf(fields [][]byte) []string {
	out := make([]string, len(fields))
	for i, field := range fields {
		out[i] = string(field)
	}
	return out
}
