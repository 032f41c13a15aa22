// Package tmpl holds the data type the Go tazuna renders tazuna.yaml with: a struct named Data in a
// package named tmpl, so that %T and %#v print "tmpl.Data" as they do there.
package tmpl

// Data is the template data: the -e value, "" when none.
type Data struct {
	Environment string
}
