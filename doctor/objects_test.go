package doctor_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skillgit/skillgit/doctor"
)

// TestDoctorObjectTemps leaves the temporary files a killed object writer leaves: old ones
// go with --fix, a recent one and one a process holds open stay, and names that only look
// alike are not touched.
func TestDoctorObjectTemps(t *testing.T) {
	_, g := doctorRepo(t)
	objects := filepath.Join(g.CommonDir(), "objects")
	write := func(rel string, age time.Duration) string {
		t.Helper()
		p := filepath.Join(objects, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("half an object"), 0o444); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
		return p
	}
	oldObj := write("ab/tmp_obj_Xq12Ab", 3*time.Hour)
	oldPack := write("pack/tmp_pack_9fGh2k", 2*time.Hour)
	oldIdx := write("pack/tmp_idx_9fGh2k", 2*time.Hour)
	recent := write("cd/tmp_obj_Rr77aa", time.Minute)
	held := write("ef/tmp_obj_Hh00bb", 5*time.Hour)
	heldBy := holdOpen(t, held)
	notOurs := []string{write("ab/tmp_obj_", 5*time.Hour), write("info/tmp_obj_x1", 5*time.Hour), write("zz/tmp_obj_x1", 5*time.Hour)}
	oldShared := write("../sharedindex_k3Jd9a", 4*time.Hour)

	rep := runDoctor(t, g, false)
	for _, p := range []string{oldObj, oldPack, oldIdx, oldShared, recent, held} {
		if f := findingFor(t, rep, p); f.Kind != doctor.FindingObjectTemp || f.Fixed {
			t.Errorf("%s without --fix: %+v", p, f)
		}
	}
	rep = runDoctor(t, g, true)
	for _, p := range []string{oldObj, oldPack, oldIdx, oldShared} {
		if f := findingFor(t, rep, p); !f.Fixed {
			t.Errorf("%s: not fixed: %+v", p, f)
		}
		mustExist(t, p, false)
	}
	if f := findingFor(t, rep, recent); f.Fixed || !strings.Contains(f.Left, "recent") {
		t.Errorf("recent temp: %+v", f)
	}
	if f := findingFor(t, rep, held); f.Fixed || !strings.Contains(f.Left, "open in process") || !strings.Contains(f.Left, strconv.Itoa(heldBy)) {
		t.Errorf("held temp: %+v", f)
	}
	for _, p := range append(notOurs, recent, held) {
		mustExist(t, p, true)
	}
	for _, f := range rep.Findings {
		for _, p := range notOurs {
			if f.Path == p {
				t.Errorf("doctor judged %s, which is no object writer's: %+v", p, f)
			}
		}
	}
}
