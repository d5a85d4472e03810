# Point-model commands (pts28): flags checked before any work.
expect_error_msg "imgp sweep: --fractions 0 is refused naming the flag, before the graph is built" 'fractions value 1 \(0\) is invalid' \
	"$gssl" imgp sweep --synthetic 100 --fractions 0 --seeds 1 --neighbors 5 --eigenpairs 10
expect_error_msg "imgp sweep: --fractions 2 is refused naming the flag" 'fractions value 2 \(2\) is invalid' \
	"$gssl" imgp sweep --synthetic 100 --fractions 0.1,2 --seeds 1 --neighbors 5 --eigenpairs 10
