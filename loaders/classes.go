package loaders

// ClassesOf numbers the label values of a labels file as LoadNodes does:
// classes 0..C−1 are the distinct values in ascending numeric order when all
// are integers, else in ascending text order; "", -1, NaN, NA, ? and the like
// are unlabelled (−1). It returns the class of each value and the class
// names.
func ClassesOf(values []string) (labels []int, names []string) { return classesOf(values) }
