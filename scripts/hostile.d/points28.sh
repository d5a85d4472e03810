# Point-model commands (points28, issue #29 item 2): the reader says which
# columns of the user's point files it used, on stderr and as "inputs" in
# --json; a labels table whose header is "name,age" is read with "age" named
# as the value column, not silently.
p28_x=$(file points28/x.csv 'name,a,b\np,0,0\nq,1,1\nr,0,1\ns,1,0\nt,0.5,0.5\n')
p28_y=$(file points28/y.csv 'name,age\np,1\nq,2\nr,3\ns,4\nt,\n')
expect_ok "points28: gp --json lists the columns it read under inputs" \
	'json_has "\"inputs\":[{\"path\"" && json_has "\"label\":\"\\\"age\\\" (column 2)\""' \
	"$gssl" gp --features "$p28_x" --targets "$p28_y" --ids name --fixed --json
expect_ok "points28: svm names the id and label columns on stderr" \
	'grep -q "read labels .*y.csv.*label = \"age\" (column 2)" "$err"' \
	"$gssl" svm --features "$p28_x" --labels "$p28_y" --ids name --kernel linear
