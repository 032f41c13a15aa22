// Command helmfiletemplate is the differential oracle for kubectl-tazuna's helmfile template functions
// (plugin/manifest/sprig_functions.cpp): it renders templates with Go's text/template and sprig v3
// exactly as the Go tazuna renders a helmfile.yaml.gotmpl (renderHelmfileTemplate there):
// template.New(name).Funcs(funcs).Option("missingkey=zero").Parse(text), where funcs is
// sprig.TxtFuncMap() without env and expandenv plus the Go tool's toYaml, fromYaml, toJson and
// fromJson, executed with {StateValues: vars, Values: vars, Environment: {Name: env}}.
//
//	helmfiletemplate run CASES   renders every case of CASES and prints one result per case
//
// A case file is a sequence of records "<environment>\x00<vars JSON object>\x00<template>\x00". The
// vars are decoded as the Go tool's loader types them: objects map[string]interface{}, arrays
// []interface{}, whole numbers int, other numbers float64. A result is "ok <bytes>\n<output>\n" or
// "error\n" (the message goes to stderr with HELMFILE_TEMPLATE_VERBOSE=1).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"github.com/tazuna/kubectl-tazuna/tests/compat/oracle"
	"sigs.k8s.io/yaml"
)

// funcs is the Go tool's function map for helmfile templates.
func funcs() template.FuncMap {
	f := sprig.TxtFuncMap()
	delete(f, "env")
	delete(f, "expandenv")
	f["toYaml"] = func(v interface{}) string {
		data, err := yaml.Marshal(v)
		if err != nil {
			return ""
		}
		return strings.TrimSuffix(string(data), "\n")
	}
	f["fromYaml"] = func(str string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := yaml.Unmarshal([]byte(str), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	f["toJson"] = func(v interface{}) string {
		data, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(data)
	}
	f["fromJson"] = func(str string) map[string]interface{} {
		m := make(map[string]interface{})
		if err := json.Unmarshal([]byte(str), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	return f
}

// typed turns json.Number into int (whole numbers that fit) or float64, recursively.
func typed(v interface{}) interface{} {
	switch x := v.(type) {
	case map[string]interface{}:
		for k, item := range x {
			x[k] = typed(item)
		}
		return x
	case []interface{}:
		for i, item := range x {
			x[i] = typed(item)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

func render(env, vars, text string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(vars))
	dec.UseNumber()
	values := map[string]interface{}{}
	if err := dec.Decode(&values); err != nil {
		return "", fmt.Errorf("vars: %v", err)
	}
	typed(values)
	t, err := template.New("helmfile.yaml.gotmpl").Funcs(funcs()).Option("missingkey=zero").Parse(text)
	if err != nil {
		return "", err
	}
	data := map[string]interface{}{
		"StateValues": values,
		"Values":      values,
		"Environment": map[string]interface{}{"Name": env},
	}
	var out oracle.LimitedBuffer
	if err := t.Execute(&out, data); err != nil {
		return "", err
	}
	return out.String(), nil
}

func main() {
	if len(os.Args) != 3 || os.Args[1] != "run" {
		fmt.Fprintln(os.Stderr, "usage: helmfiletemplate run CASES")
		os.Exit(2)
	}
	format := oracle.Format{Fields: 3, Records: "environment/vars/template triples"}
	oracle.RunFile(os.Args[2], format, os.Getenv("HELMFILE_TEMPLATE_VERBOSE") == "1", func(c []string) (string, error) {
		return render(c[0], c[1], c[2])
	})
}
