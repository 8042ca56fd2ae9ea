package translations

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chai2010/gettext-go"
	"github.com/chai2010/gettext-go/mo"
	"github.com/chai2010/gettext-go/po"
)

// upstreamDir is k8s.io/kubectl's default translations in the module cache.
func upstreamDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubectl").Output()
	if err != nil {
		t.Fatalf("go list -m k8s.io/kubectl: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "pkg", "util", "i18n", "translations", "kubectl", "default", "LC_MESSAGES")
}

var update = flag.Bool("update", false, "write default.mo from upstream's k8s.po")

// compile is upstream's default k8s.po as a .mo: what default.mo holds.
// (Upstream's own k8s.mo is older than its k8s.po — one message differs —
// and gettext reads the .po first; gettext-go's mo encoder writes the
// header in .po syntax, so the language, hence the plural rule, would be
// lost: this writes the GNU format itself — magic, revision 0, count,
// the two tables of (length, offset), the strings — with the header as
// the message of msgid "".)
func compile(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(upstreamDir(t), "k8s.po"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := po.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	type entry struct{ id, str string }
	var header string
	for _, m := range f.Messages {
		if m.MsgId == "" { // gettext-go's po parser keeps the header apart
			header = m.MsgStr
		}
	}
	if header == "" {
		header = poHeader(t, data)
	}
	entries := []entry{{"", header}}
	for _, m := range f.Messages {
		if m.MsgId == "" || (m.MsgStr == "" && len(m.MsgStrPlural) == 0) {
			continue
		}
		id, str := m.MsgId, m.MsgStr
		if m.MsgContext != "" {
			id = m.MsgContext + mo.EotSeparator + id
		}
		if m.MsgIdPlural != "" {
			id += mo.NulSeparator + m.MsgIdPlural
			str = strings.Join(m.MsgStrPlural, mo.NulSeparator)
		}
		entries = append(entries, entry{id, str})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].id < entries[j].id })
	n := uint32(len(entries))
	const headerSize = 28
	idTable := uint32(headerSize)
	strTable := idTable + 8*n
	at := strTable + 8*n
	var tables, strs bytes.Buffer
	le := binary.LittleEndian
	for _, pass := range []func(entry) string{func(e entry) string { return e.id }, func(e entry) string { return e.str }} {
		for _, e := range entries {
			s := pass(e)
			binary.Write(&tables, le, [2]uint32{uint32(len(s)), at})
			strs.WriteString(s)
			strs.WriteByte(0)
			at += uint32(len(s)) + 1
		}
	}
	var out bytes.Buffer
	binary.Write(&out, le, [7]uint32{mo.MoMagicLittleEndian, 0, n, idTable, strTable, 0, at})
	out.Write(tables.Bytes())
	out.Write(strs.Bytes())
	return out.Bytes()
}

// poHeader is the msgstr of k8s.po's header entry (msgid ""), unquoted.
func poHeader(t *testing.T, data []byte) string {
	t.Helper()
	text := string(data)
	i := strings.Index(text, "msgid \"\"\nmsgstr \"\"\n")
	if i < 0 {
		t.Fatal("k8s.po has no header entry")
	}
	var b strings.Builder
	for _, line := range strings.Split(text[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "\"") {
			break
		}
		s, err := strconv.Unquote(line)
		if err != nil {
			t.Fatalf("k8s.po header line %q: %v", line, err)
		}
		b.WriteString(s)
	}
	return b.String()
}

func TestCatalogueIsUpstreams(t *testing.T) {
	want := compile(t)
	if *update {
		if err := os.WriteFile("default.mo", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(defaultMO, want) {
		t.Fatalf("default.mo (%d bytes) is not upstream's k8s.po compiled (%d bytes): go test ./internal/translations -update", len(defaultMO), len(want))
	}
}

// TestSameAnswersAsUpstream loads the catalogue both ways — upstream's
// (a deflated zip of k8s.po and k8s.mo, as i18n.LoadTranslations builds
// it) and Load's (the .mo alone) — and asks both for every message of
// k8s.po, singular and plural, and for one that is not there.
func TestSameAnswersAsUpstream(t *testing.T) {
	dir := upstreamDir(t)
	buf := new(bytes.Buffer)
	w := zip.NewWriter(buf)
	for _, name := range []string{"k8s.po", "k8s.mo"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		f, err := w.Create("kubectl/default/LC_MESSAGES/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	upstream := gettext.New("k8s", "kubectl.zip", buf.Bytes()).SetLanguage("default")
	ours := gettext.New("k8s", "kubectl.zip", moFS{}).SetLanguage("default")

	catalogue, err := po.LoadFile(filepath.Join(dir, "k8s.po"))
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{"not a kubectl message"}
	for _, m := range catalogue.Messages {
		ids = append(ids, m.MsgId)
	}
	if len(ids) < 300 {
		t.Fatalf("k8s.po has %d messages, want the catalogue (>= 300)", len(ids)-1)
	}
	for _, id := range ids {
		if got, want := ours.PGettext("", id), upstream.PGettext("", id); got != want {
			t.Errorf("T(%q) = %q, upstream %q", id, got, want)
		}
		for _, n := range []int{0, 1, 2, 5} {
			if got, want := ours.PNGettext("", id, id+".plural", n), upstream.PNGettext("", id, id+".plural", n); got != want {
				t.Errorf("T(%q, %d) = %q, upstream %q", id, n, got, want)
			}
		}
	}
}

// Loaded is for order_test.go (package translations_test): how often Load ran.
func Loaded() int32 { return loaded.Load() }
