// Command gotemplate is the differential oracle for kubectl-tazuna's text/template engine: it renders
// templates with Go's own text/template exactly as the Go tazuna renders tazuna.yaml
// (template.New(name).Option("missingkey=error").Parse(text), Execute with tmpl.Data{Environment}).
//
//	gotemplate run CASES   renders every case of CASES and prints one result per case
//	gotemplate gen N SEED  writes N generated cases to stdout (see gen.go)
//
// A case file is a sequence of records "<environment>\x00<template>\x00". A result is
// "ok <bytes>\n<output>\n" or "error\n" (the message goes to stderr with GOTEMPLATE_VERBOSE=1).
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"text/template"

	"github.com/tazuna/kubectl-tazuna/tests/compat/gotemplate/tmpl"
)

// maxOutput bounds one case's output, as the C++ twin does (kMaxOutputBytes): a larger one is an error.
const maxOutput = 16 << 20

type limitedBuffer struct {
	bytes.Buffer
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > maxOutput {
		return 0, fmt.Errorf("output exceeds %d bytes", maxOutput)
	}
	return b.Buffer.Write(p)
}

func render(env, text string) (string, error) {
	t, err := template.New("tazuna.yaml").Option("missingkey=error").Parse(text)
	if err != nil {
		return "", err
	}
	var out limitedBuffer
	if err := t.Execute(&out, tmpl.Data{Environment: env}); err != nil {
		return "", err
	}
	return out.String(), nil
}

func readCases(path string) ([][2]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	parts := bytes.Split(data, []byte{0})
	if len(parts)%2 != 1 || len(parts[len(parts)-1]) != 0 {
		return nil, fmt.Errorf("%s: not a sequence of NUL-terminated environment/template pairs", path)
	}
	var cases [][2]string
	for i := 0; i+1 < len(parts); i += 2 {
		cases = append(cases, [2]string{string(parts[i]), string(parts[i+1])})
	}
	return cases, nil
}

func main() {
	if len(os.Args) == 4 && os.Args[1] == "gen" {
		n, err1 := strconv.Atoi(os.Args[2])
		seed, err2 := strconv.ParseInt(os.Args[3], 10, 64)
		if err1 != nil || err2 != nil {
			fmt.Fprintln(os.Stderr, "usage: gotemplate gen N SEED")
			os.Exit(2)
		}
		w := bufio.NewWriter(os.Stdout)
		for _, c := range generate(n, seed) {
			w.WriteString(c[0] + "\x00" + c[1] + "\x00")
		}
		w.Flush()
		return
	}
	if len(os.Args) != 3 || os.Args[1] != "run" {
		fmt.Fprintln(os.Stderr, "usage: gotemplate run CASES | gotemplate gen N SEED")
		os.Exit(2)
	}
	cases, err := readCases(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	verbose := os.Getenv("GOTEMPLATE_VERBOSE") == "1"
	w := bufio.NewWriter(os.Stdout)
	for i, c := range cases {
		out, err := render(c[0], c[1])
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
