package htmlreport_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gssl/gssl/htmlreport"
)

func Example() {
	res := struct {
		Accuracy float64 `json:"accuracy"`
		Seed     int     `json:"seed"`
	}{0.8125, 7}
	fields, err := htmlreport.FieldsTable("result", res)
	if err != nil {
		fmt.Println(err)
		return
	}
	r := &htmlreport.Report{
		Title:   "gssl labelprop",
		Command: []string{"gssl", "labelprop", "--report", "out"},
		Seeds:   "seed = 7",
		Timings: []htmlreport.Timing{{Name: "fit", Seconds: 0.25}},
		Tables:  []htmlreport.Table{fields},
	}
	dir, err := os.MkdirTemp("", "report")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	if err := r.Write(dir); err != nil {
		fmt.Println(err)
		return
	}
	_, err = os.Stat(filepath.Join(dir, "index.html"))
	fmt.Println(fields.Rows, err)
	// Output:
	// [[accuracy 0.8125] [seed 7]] <nil>
}
