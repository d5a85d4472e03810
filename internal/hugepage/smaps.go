package hugepage

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Mapping is one mapping of /proc/self/smaps (Linux): its address range
// [Lo, Hi), its file (empty for anonymous memory), its resident and
// transparent-huge-page kilobytes and its VmFlags ("hg": advised for huge
// pages).
type Mapping struct {
	Lo, Hi            uint64
	Name              string
	RssKB, AnonHugeKB int
	Flags             []string
}

// Mappings reads /proc/self/smaps, to see which pages of a block are huge
// (tests and timing harnesses). It fails where the file does not exist.
func Mappings() ([]Mapping, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if r := strings.SplitN(fs[0], "-", 2); len(r) == 2 && !strings.HasSuffix(fs[0], ":") {
			lo, err1 := strconv.ParseUint(r[0], 16, 64)
			hi, err2 := strconv.ParseUint(r[1], 16, 64)
			if err1 == nil && err2 == nil {
				m := Mapping{Lo: lo, Hi: hi}
				if len(fs) >= 6 {
					m.Name = fs[5]
				}
				out = append(out, m)
				continue
			}
		}
		if len(out) == 0 || len(fs) < 2 {
			continue
		}
		last := &out[len(out)-1]
		switch fs[0] {
		case "Rss:":
			last.RssKB, _ = strconv.Atoi(fs[1])
		case "AnonHugePages:":
			last.AnonHugeKB, _ = strconv.Atoi(fs[1])
		case "VmFlags:":
			last.Flags = fs[1:]
		}
	}
	return out, sc.Err()
}
