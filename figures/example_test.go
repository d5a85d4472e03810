package figures_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gssl/gssl/figures"
)

// A confusion matrix and the per-class accuracy, side by side in one PNG.
func Example() {
	names := []string{"cat", "dog"}
	conf, err := figures.Confusion([][]int{{8, 2}, {1, 9}}, names)
	if err != nil {
		fmt.Println(err)
		return
	}
	acc, err := figures.ClassAccuracy([]int{8, 9}, []int{10, 10}, names)
	if err != nil {
		fmt.Println(err)
		return
	}
	fig := figures.New(conf, acc)
	dir, err := os.MkdirTemp("", "figures")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := fig.Save(filepath.Join(dir, "classes.png")); err != nil {
		fmt.Println(err)
		return
	}
	w, h := fig.Size()
	fmt.Printf("%d×%d pixels\n", w, h)
	_, err = figures.FormatOf("classes.jpg")
	fmt.Println(err)
	// Output:
	// 1056×432 pixels
	// classes.jpg: unknown image format ".jpg": the name must end in .png, .svg, .pdf
}
