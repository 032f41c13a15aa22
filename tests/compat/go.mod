module github.com/tazuna/kubectl-tazuna/tests/compat

go 1.22

require sigs.k8s.io/yaml v1.4.0
