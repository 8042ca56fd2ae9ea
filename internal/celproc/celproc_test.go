package celproc

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kubesandbox/kubesandbox/core/apiserver"
	"github.com/kubesandbox/kubesandbox/core/cel"
)

// The test binary is its own engine: with CELPROC_FAKE=1 it serves fake
// on stdin/stdout, as cel/cmd/kubesandbox-cel serves the real one.
func TestMain(m *testing.M) {
	if os.Getenv("CELPROC_FAKE") == "1" {
		if err := Serve(fake{}, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fake answers CheckCRD with one cause naming the CRD it was sent, panics
// in ValidateCustomResource, exits in CheckPolicy (an engine that dies),
// and fails Admit.
type fake struct{}

func (fake) CheckCRD(r cel.CheckCRDRequest) ([]cel.Cause, error) {
	return []cel.Cause{{Type: "FieldValueInvalid", Field: "spec", Detail: string(r.CRD)}}, nil
}

func (fake) ValidateCustomResource(cel.CustomResourceRequest) (cel.CustomResourceResponse, error) {
	panic("boom")
}

func (fake) CheckPolicy(cel.CheckPolicyRequest) ([]cel.Cause, error) {
	os.Exit(3)
	return nil, nil
}

func (fake) Admit(cel.AdmissionRequest) (cel.AdmissionResponse, error) {
	return cel.AdmissionResponse{}, errors.New("no policies here")
}

func (fake) TypeCheck(cel.TypeCheckRequest) ([]cel.ExpressionWarning, error) { return nil, nil }

// fakeEngine is a Transport to this test binary as the fake engine.
func fakeEngine(t *testing.T) *Transport {
	t.Helper()
	t.Setenv("CELPROC_FAKE", "1") // the engine inherits it
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tr := &Transport{Path: self}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func TestCalls(t *testing.T) {
	tr := fakeEngine(t)
	e := cel.Remote(tr)
	if tr.Starts() != 0 {
		t.Fatalf("started before the first call")
	}
	for _, tc := range []struct {
		name    string
		call    func() (any, error)
		want    string
		wantErr string
	}{
		{"an answer", func() (any, error) {
			return e.CheckCRD(cel.CheckCRDRequest{CRD: []byte(`{"kind":"CustomResourceDefinition"}`)})
		}, `[{FieldValueInvalid spec <nil> {"kind":"CustomResourceDefinition"} }]`, ""},
		{"the engine's error", func() (any, error) { return e.Admit(cel.AdmissionRequest{}) }, "", "no policies here"},
		{"a panic is the call's error", func() (any, error) { return e.ValidateCustomResource(cel.CustomResourceRequest{}) },
			"", "cel: ValidateCustomResource panicked: boom"},
		{"an unknown method", func() (any, error) { return tr.Call("Nope", []byte(`{}`)) }, "", `cel: unknown method "Nope"`},
		{"still the same engine", func() (any, error) { return e.TypeCheck(cel.TypeCheckRequest{}) }, "[]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.call()
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := fmt.Sprint(got); s != tc.want {
				t.Errorf("got %s, want %s", s, tc.want)
			}
		})
	}
	if tr.Starts() != 1 {
		t.Errorf("%d starts, want 1", tr.Starts())
	}
}

// An engine that exits fails the calls it had; the next call starts it again.
func TestEngineExits(t *testing.T) {
	tr := fakeEngine(t)
	e := cel.Remote(tr)
	if _, err := e.CheckPolicy(cel.CheckPolicyRequest{}); err == nil || !strings.Contains(err.Error(), "the engine exited") {
		t.Fatalf("CheckPolicy on an engine that exits: %v", err)
	}
	if _, err := e.CheckCRD(cel.CheckCRDRequest{CRD: []byte(`{}`)}); err != nil {
		t.Fatalf("the call after the exit: %v", err)
	}
	if tr.Starts() != 2 {
		t.Errorf("%d starts, want 2", tr.Starts())
	}
}

func TestConcurrentCalls(t *testing.T) {
	tr := fakeEngine(t)
	e := cel.Remote(tr)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Go(func() {
			want := fmt.Sprintf(`{"n":%d}`, i)
			causes, err := e.CheckCRD(cel.CheckCRDRequest{CRD: []byte(want)})
			if err == nil && (len(causes) != 1 || causes[0].Detail != want) {
				err = fmt.Errorf("call %d answered %v", i, causes)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if tr.Starts() != 1 {
		t.Errorf("%d starts for concurrent first calls, want 1", tr.Starts())
	}
}

// A missing engine: the server runs, a write that needs CEL answers 500
// InternalError as the browser's does when its engine cannot load, and
// nothing is stored.
func TestMissingEngine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubesandbox-cel")
	api := apiserver.New(apiserver.Options{CEL: Engine(path)})
	defer api.Close()
	srv := httptest.NewServer(api)
	defer srv.Close()
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
	  "metadata":{"name":"widgets.example.com"},
	  "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
	    "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
	      "properties":{"spec":{"type":"object","x-kubernetes-validations":[{"rule":"self.a <= self.b"}],
	        "properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}}}}}]}}`
	for _, tc := range []struct {
		name, method, path, body string
		code                     int
		msg                      string
	}{
		{"a CRD with rules", "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd, 500,
			"the CEL engine (" + path + ") could not be loaded"},
		{"not stored", "GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com", "", 404, ""},
		{"no CEL needed", "POST", "/api/v1/namespaces/default/configmaps",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`, 201, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.code || !strings.Contains(string(body), tc.msg) {
				t.Errorf("got %s %s, want %d with %q", resp.Status, body, tc.code, tc.msg)
			}
		})
	}
}
