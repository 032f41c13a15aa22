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
	"fmt"
	"os"
	"strconv"
	"text/template"

	"github.com/tazuna/kubectl-tazuna/tests/compat/gotemplate/tmpl"
	"github.com/tazuna/kubectl-tazuna/tests/compat/oracle"
)

func render(env, text string) (string, error) {
	t, err := template.New("tazuna.yaml").Option("missingkey=error").Parse(text)
	if err != nil {
		return "", err
	}
	var out oracle.LimitedBuffer
	if err := t.Execute(&out, tmpl.Data{Environment: env}); err != nil {
		return "", err
	}
	return out.String(), nil
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
	format := oracle.Format{Fields: 2, Records: "environment/template pairs"}
	oracle.RunFile(os.Args[2], format, os.Getenv("GOTEMPLATE_VERBOSE") == "1", func(c []string) (string, error) {
		return render(c[0], c[1])
	})
}
