// Command yamlhash is the compatibility oracle for kubectl-tazuna: it types a
// multi-document YAML file the way the Go tazuna tool does (split on "---"
// lines, sigs.k8s.io/yaml YAMLToJSON, then encoding/json into interface{}) and
// prints, per non-null document, "<json>\t<contenthash>", or "error" for a
// document that fails (details on stderr with YAMLHASH_VERBOSE=1).
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// splitDocuments splits on lines that start with "---" followed only by
// spaces or a comment, as apimachinery's YAMLReader does.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1024*1024), 64*1024*1024)
	sc.Split(splitKeepNewline)
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest == "" || rest[0] == '#' {
				docs = append(docs, append([]byte(nil), cur.Bytes()...))
				cur.Reset()
				continue
			}
		}
		cur.Write(line)
	}
	docs = append(docs, append([]byte(nil), cur.Bytes()...))
	return docs
}

func splitKeepNewline(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i+1], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

func contentHash(obj any) (string, error) {
	if m, ok := obj.(map[string]any); ok {
		if md, ok := m["metadata"].(map[string]any); ok {
			for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink"} {
				delete(md, f)
			}
		}
		delete(m, "status")
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// processDocument returns the output line for one document, "" for a null one.
func processDocument(doc []byte) (string, error) {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return "", err
	}
	var obj any
	if err := json.Unmarshal(j, &obj); err != nil {
		return "", err
	}
	if obj == nil {
		return "", nil
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return "", err
	}
	h, err := contentHash(obj)
	if err != nil {
		return "", err
	}
	return string(out) + "\t" + h, nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: yamlhash FILE")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i, doc := range splitDocuments(data) {
		line, err := processDocument(doc)
		if err != nil {
			fmt.Println("error")
			if os.Getenv("YAMLHASH_VERBOSE") != "" {
				fmt.Fprintf(os.Stderr, "document %d: %v\n", i, err)
			}
			continue
		}
		if line != "" {
			fmt.Println(line)
		}
	}
}
