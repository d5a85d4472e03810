# One flag, one meaning, and TU files whose columns are reported (issue
# #29): graphkernel's --folds is a number of folds as in every command (a
# file there is an error naming --fold-file, not a silent second meaning),
# and every TU file read says which of its columns were used and which read
# past, on stderr and under "inputs".

d=$tmp/k28-tu
mkdir -p "$d"
# Two triangles and two paths; node labels with three columns (the first is kept).
printf '1, 2\n2, 1\n2, 3\n3, 2\n1, 3\n3, 1\n4, 5\n5, 4\n5, 6\n6, 5\n7, 8\n8, 7\n8, 9\n9, 8\n7, 9\n9, 7\n10, 11\n11, 10\n11, 12\n12, 11\n' >"$d/T_A.txt"
printf '1\n1\n1\n2\n2\n2\n3\n3\n3\n4\n4\n4\n' >"$d/T_graph_indicator.txt"
printf '1\n2\n1\n2\n' >"$d/T_graph_labels.txt"
printf '0, 7, 7\n1, 7, 7\n0, 7, 7\n1, 7, 7\n0, 7, 7\n1, 7, 7\n0, 7, 7\n1, 7, 7\n0, 7, 7\n1, 7, 7\n0, 7, 7\n1, 7, 7\n' >"$d/T_node_labels.txt"
printf '0 1 0 1\n' >"$tmp/k28-folds.txt"

expect_error_msg "graphkernel: --folds FILE is an error naming --fold-file" 'fold-file' \
	"$gssl" graphkernel --data "$d" --folds "$tmp/k28-folds.txt" --seeds 1
expect_ok "info: a TU folder reports the columns read past" 'json_has "\"ignored\":[\"columns 2..3\"]"' \
	"$gssl" info --json "$d"
expect_ok "graphkernel: the TU files' column reports under inputs" 'json_has "\"role\":\"node labels\""' \
	"$gssl" graphkernel --json --data "$d" --seeds 0
