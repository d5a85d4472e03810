# New nodes sent to saved heterophily networks (classify --classifier sepgnn and
# linkx --save, then gssl predict): a wrong feature count or an unknown
# neighbour id is refused naming the counts or the id, not answered.
"$gssl" generate sbm --out "$tmp/gnn32b/g" --nodes 300 --classes 3 --degree 6 --mixing 0.8 \
	--feature-columns 8 --format folder >/dev/null 2>&1
gnn32b_feat=$(file gnn32b/f.csv 'id,a,b\nn1,1,0\n')
gnn32b_feat8=$(file gnn32b/f8.csv 'id,a,b,c,d,e,f,g,h\nn1,1,0,0,1,0,0,0,1\n')
gnn32b_edges=$(file gnn32b/e.csv 'source,target\nn1,3\n')
gnn32b_unknown=$(file gnn32b/u.csv 'source,target\nn1,99999\n')
for m in sepgnn linkx; do
	"$gssl" classify --data "$tmp/gnn32b/g" --classifier $m --save "$tmp/gnn32b/$m.gssl" >/dev/null 2>&1
	expect_error_msg "predict: a new node with 2 features sent to a saved $m of 8" \
		'has 2 columns of features; the nodeclass\.(SepGNN|LINKX) model was fitted on 8' \
		"$gssl" predict --model "$tmp/gnn32b/$m.gssl" --edges "$gnn32b_edges" --features "$gnn32b_feat"
	expect_error_msg "predict: a new node of a saved $m joined to an unknown id" \
		'neither n1 nor 99999 is a fitted node of the model' \
		"$gssl" predict --model "$tmp/gnn32b/$m.gssl" --edges "$gnn32b_unknown" --features "$gnn32b_feat8"
done
