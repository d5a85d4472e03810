package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/xitongsys/parquet-go/writer"
)

// isParquetOut reports whether an output file is written as Parquet.
func isParquetOut(name string) bool { return isParquet(name) }

// parquetName makes a column name safe in a parquet-go schema tag, whose
// fields are separated by commas and set by '='.
func parquetName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ',' || r == '=' || r == ' ' || r == '\t' {
			return '_'
		}
		return r
	}, s)
}

// writeParquet writes a table to name: the id and "predicted" columns as
// UTF-8 strings, every other column as a double (the cells are the
// shortest decimal forms, so they read back exactly).
func writeParquet(ctx context.Context, name string, cols []string, rows []Row) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	err = encodeParquet(wc, cols, rows)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

func encodeParquet(w io.Writer, cols []string, rows []Row) error {
	type field struct {
		Tag string
	}
	schema := struct {
		Tag    string
		Fields []field
	}{Tag: "name=parquet_go_root"}
	text := make([]bool, len(cols))
	names := make([]string, len(cols))
	for j, c := range cols {
		names[j] = parquetName(c)
		text[j] = j == 0 || c == "predicted"
		typ := "type=DOUBLE"
		if text[j] {
			typ = "type=BYTE_ARRAY, convertedtype=UTF8"
		}
		schema.Fields = append(schema.Fields, field{Tag: fmt.Sprintf("name=%s, %s, repetitiontype=REQUIRED", names[j], typ)})
	}
	md, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	pw, err := writer.NewJSONWriterFromWriter(string(md), w, 1)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, r := range rows {
		buf.Reset()
		buf.WriteByte('{')
		for j := range cols {
			if j > 0 {
				buf.WriteByte(',')
			}
			k, _ := json.Marshal(names[j])
			buf.Write(k)
			buf.WriteByte(':')
			cell := r.ID
			if j > 0 {
				cell = r.Cells[j-1]
			}
			if text[j] {
				v, _ := json.Marshal(cell)
				buf.Write(v)
				continue
			}
			if _, err := strconv.ParseFloat(cell, 64); err != nil {
				return fmt.Errorf("column %s: %q is not a number", cols[j], cell)
			}
			buf.WriteString(cell)
		}
		buf.WriteByte('}')
		if err := pw.Write(buf.String()); err != nil {
			return err
		}
	}
	return pw.WriteStop()
}
