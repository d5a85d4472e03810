package htmlreport

import "strconv"

// ConfusionTables are the tables of a confusion matrix counts (rows: the
// true class, columns: the predicted one): the accuracy of each class
// (its nodes, those predicted right and their share, "–" for a class
// without nodes) and the matrix itself.
func ConfusionTables(counts [][]int, names []string) []Table {
	acc := Table{Caption: "accuracy per class", Header: []string{"class", "nodes", "correct", "accuracy"}}
	for c, row := range counts {
		total := 0
		for _, v := range row {
			total += v
		}
		a := "–"
		if total > 0 {
			a = strconv.FormatFloat(float64(row[c])/float64(total), 'f', 4, 64)
		}
		acc.Rows = append(acc.Rows, []string{names[c], strconv.Itoa(total), strconv.Itoa(row[c]), a})
	}
	return []Table{acc, CountTable("confusion matrix (rows: true class, columns: predicted)", "true \\ predicted", names, names, counts)}
}
