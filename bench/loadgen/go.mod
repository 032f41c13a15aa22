module kubectl-tazuna/bench/loadgen

go 1.24
