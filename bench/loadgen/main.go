// loadgen measures the apiserver's ceiling for server-side apply: it sends one SSA PATCH
// (application/apply-patch+yaml, fieldManager=loadgen, force=true) per object, with a fixed number of
// requests in flight over one HTTP/2 connection, authenticated with a client certificate.
//
// Usage: loadgen -server URL -ca FILE -cert FILE -key FILE -objects FILE [-inflight 32]
//
// FILE is a JSON array of {"path": REST path of the object, "body": the object}. Namespace objects
// (paths /api/v1/namespaces/NAME) are applied first and awaited, then everything else.
// Prints one line: requests, failures, elapsed time, requests/s and the HTTP protocol used.
// Exits 1 if any request failed.
package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type entry struct {
	Path string          `json:"path"`
	Body json.RawMessage `json:"body"`
}

func main() {
	server := flag.String("server", "", "apiserver URL")
	ca := flag.String("ca", "", "CA certificate file")
	cert := flag.String("cert", "", "client certificate file")
	key := flag.String("key", "", "client key file")
	objects := flag.String("objects", "", "JSON file of {path, body} entries")
	inflight := flag.Int("inflight", 32, "requests in flight")
	manager := flag.String("field-manager", "loadgen", "fieldManager")
	flag.Parse()
	if *server == "" || *objects == "" {
		fmt.Fprintln(os.Stderr, "usage: loadgen -server URL -ca FILE -cert FILE -key FILE -objects FILE [-inflight N]")
		os.Exit(2)
	}
	die := func(err error) { fmt.Fprintln(os.Stderr, "loadgen:", err); os.Exit(2) }

	raw, err := os.ReadFile(*objects)
	if err != nil {
		die(err)
	}
	var entries []entry
	if err := json.Unmarshal(raw, &entries); err != nil {
		die(err)
	}
	tlsCfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if *ca != "" {
		pem, err := os.ReadFile(*ca)
		if err != nil {
			die(err)
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(pem)
		tlsCfg.RootCAs = pool
	}
	if *cert != "" {
		pair, err := tls.LoadX509KeyPair(*cert, *key)
		if err != nil {
			die(err)
		}
		tlsCfg.Certificates = []tls.Certificate{pair}
	}
	client := &http.Client{
		Transport: &http.Transport{TLSClientConfig: tlsCfg, ForceAttemptHTTP2: true, MaxIdleConnsPerHost: *inflight},
		Timeout:   60 * time.Second,
	}

	var namespaces, rest []entry
	for _, e := range entries {
		if strings.Count(strings.TrimPrefix(e.Path, "/api/v1/namespaces/"), "/") == 0 &&
			strings.HasPrefix(e.Path, "/api/v1/namespaces/") {
			namespaces = append(namespaces, e)
		} else {
			rest = append(rest, e)
		}
	}
	var failed atomic.Int64
	var proto atomic.Value
	proto.Store("")
	var firstErr sync.Once
	send := func(e entry) {
		url := strings.TrimRight(*server, "/") + e.Path + "?fieldManager=" + *manager + "&force=true"
		req, err := http.NewRequest(http.MethodPatch, url, bytes.NewReader(e.Body))
		if err != nil {
			die(err)
		}
		req.Header.Set("Content-Type", "application/apply-patch+yaml")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", "loadgen/1.0")
		resp, err := client.Do(req)
		if err != nil {
			failed.Add(1)
			firstErr.Do(func() { fmt.Fprintln(os.Stderr, "loadgen:", e.Path, err) })
			return
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		proto.Store(resp.Proto)
		if resp.StatusCode >= 300 {
			failed.Add(1)
			firstErr.Do(func() { fmt.Fprintf(os.Stderr, "loadgen: %s: HTTP %d: %s\n", e.Path, resp.StatusCode, body) })
		}
	}
	run := func(list []entry) {
		work := make(chan entry)
		var wg sync.WaitGroup
		for w := 0; w < *inflight; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for e := range work {
					send(e)
				}
			}()
		}
		for _, e := range list {
			work <- e
		}
		close(work)
		wg.Wait()
	}
	start := time.Now()
	run(namespaces)
	run(rest)
	elapsed := time.Since(start)
	n := len(entries)
	fmt.Printf("loadgen: %d requests, %d failed, %d in flight, %.3fs, %.0f req/s, %s\n",
		n, failed.Load(), *inflight, elapsed.Seconds(), float64(n)/elapsed.Seconds(), proto.Load())
	if failed.Load() > 0 {
		os.Exit(1)
	}
}
