package apiserver

import (
	"fmt"
	"testing"
	"time"

	"github.com/kubesandbox/kubesandbox/core/cel"
)

// nopEngine admits everything at once: what is measured is the admission
// step's own cost (finding policies and bindings, building the request).
type nopEngine struct{ *fakePolicies }

func (nopEngine) Admit(cel.AdmissionRequest) (cel.AdmissionResponse, error) {
	return cel.AdmissionResponse{}, nil
}

// BenchmarkCreateAdmission: ConfigMap creates on two servers, one without
// a CEL engine and one with an engine, interleaved (one create on each per
// op, alternating which goes first), so the ratio of their times compares them under the same machine
// load. engine/none is that ratio (≈1: a cluster without policies pays
// nothing for the engine). With policies=20, both servers hold 20 policies
// and bindings (none matching ConfigMaps in the engine: a nop): the
// engine's server gathers and sends them on every write.
func BenchmarkCreateAdmission(b *testing.B) {
	for _, policies := range []int{0, 20} {
		b.Run(fmt.Sprintf("policies=%d", policies), func(b *testing.B) {
			none, eng := New(Options{}), New(Options{CEL: nopEngine{&fakePolicies{}}})
			for i := 0; i < policies; i++ {
				for _, s := range []*Server{none, eng} {
					pol := fmt.Sprintf(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"p%d"},
					 "spec":{"matchConstraints":{"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE"],"resources":["deployments"]}]},
					 "validations":[{"expression":"object.spec.replicas <= 5"}]}}`, i)
					serve(b, s, "POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", []byte(pol), 201)
					bind := fmt.Sprintf(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"b%d"},
					 "spec":{"policyName":"p%d","validationActions":["Deny"]}}`, i, i)
					serve(b, s, "POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings", []byte(bind), 201)
				}
			}
			bodies := make([][]byte, b.N)
			for i := range bodies {
				bodies[i] = benchBody(i)
			}
			var tNone, tEng time.Duration
			b.ResetTimer()
			timed := func(s *Server, body []byte) time.Duration {
				t0 := time.Now()
				serve(b, s, "POST", cmPath, body, 201)
				return time.Since(t0)
			}
			for i := 0; i < b.N; i++ {
				if i%2 == 0 { // alternate which goes first
					tNone += timed(none, bodies[i])
					tEng += timed(eng, bodies[i])
				} else {
					tEng += timed(eng, bodies[i])
					tNone += timed(none, bodies[i])
				}
			}
			b.StopTimer()
			b.ReportMetric(tEng.Seconds()/tNone.Seconds(), "engine/none")
			b.ReportMetric(float64(b.N)/tNone.Seconds(), "none-objects/s")
			b.ReportMetric(float64(b.N)/tEng.Seconds(), "engine-objects/s")
		})
	}
}
