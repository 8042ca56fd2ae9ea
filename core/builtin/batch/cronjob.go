package batch

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	. "github.com/kubesandbox/kubesandbox/core/builtin/common"
	"github.com/kubesandbox/kubesandbox/core/field"
)

// ValidateCronJob is ValidateCronJobCreate / ValidateCronJobUpdate.
func ValidateCronJob(obj, old map[string]any) field.ErrorList {
	sp := field.NewPath("spec")
	var oldSpec map[string]any
	if old != nil {
		oldSpec = Obj(old, "spec")
		if oldSpec == nil {
			oldSpec = map[string]any{}
		}
	}
	errs := validateCronJobSpec(Obj(obj, "spec"), oldSpec, sp)
	if name := Str(Obj(obj, "metadata"), "name"); old == nil && len(name) > 52 {
		// the controller appends an 11-character suffix to name its jobs
		errs = append(errs, field.Invalid(field.NewPath("metadata").Child("name"), name, "must be no more than 52 characters"))
	}
	return errs
}

func validateCronJobSpec(spec, oldSpec map[string]any, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	schedule := Str(spec, "schedule")
	if schedule == "" {
		errs = append(errs, field.Required(p.Child("schedule"), ""))
	} else {
		errs = append(errs, validateScheduleFormat(schedule, oldSpec != nil && strings.Contains(Str(oldSpec, "schedule"), "TZ"), Has(spec, "timeZone"), p.Child("schedule"))...)
	}
	if v, ok := IntOK(spec, "startingDeadlineSeconds"); ok {
		errs = append(errs, NonNegative(v, p.Child("startingDeadlineSeconds"))...)
	}
	if oldSpec == nil || Has(spec, "timeZone") != Has(oldSpec, "timeZone") || Str(spec, "timeZone") != Str(oldSpec, "timeZone") {
		errs = append(errs, validateTimeZone(spec, p.Child("timeZone"))...)
	}
	switch cp := Str(spec, "concurrencyPolicy"); cp {
	case "Allow", "Forbid", "Replace":
	case "":
		errs = append(errs, field.Required(p.Child("concurrencyPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(p.Child("concurrencyPolicy"), cp, []string{"Allow", "Forbid", "Replace"}))
	}
	jp := p.Child("jobTemplate")
	js := Obj(Obj(spec, "jobTemplate"), "spec")
	errs = append(errs, validateJobSpec(js, jp.Child("spec"))...)
	if sel := Obj(js, "selector"); sel != nil {
		errs = append(errs, field.Invalid(jp.Child("spec", "selector"), SelectorValue(sel), "`selector` will be auto-generated"))
	}
	if Bool(js, "manualSelector") {
		errs = append(errs, field.NotSupported(jp.Child("spec", "manualSelector"), true, []string{"nil", "false"}))
	}
	for _, k := range []string{"successfulJobsHistoryLimit", "failedJobsHistoryLimit"} {
		if v, ok := IntOK(spec, k); ok {
			errs = append(errs, NonNegative(v, p.Child(k))...)
		}
	}
	return errs
}

// ParseSchedule is ParseCronScheduleWithPanicRecovery: robfig/cron's
// ParseStandard, as kube-apiserver's validation and the CronJob controller
// (core/controllers) both call it.
func ParseSchedule(s string) (sched cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, fmt.Errorf("invalid schedule format: %v", r)
		}
	}()
	return cron.ParseStandard(s)
}

func parseSchedule(s string) error {
	_, err := ParseSchedule(s)
	return err
}

func validateScheduleFormat(s string, allowTZ, hasTimeZone bool, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if err := parseSchedule(s); err != nil {
		errs = append(errs, field.Invalid(p, s, err.Error()))
	}
	switch {
	case allowTZ && strings.Contains(s, "TZ") && hasTimeZone:
		errs = append(errs, field.Invalid(p, s, "cannot use both timeZone field and TZ or CRON_TZ in schedule"))
	case !allowTZ && strings.Contains(s, "TZ"):
		errs = append(errs, field.Invalid(p, s, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"))
	}
	return errs
}

func validTZPart(s string) bool {
	if len(s) < 1 || len(s) > 14 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' || r == '+') {
			return false
		}
	}
	return true
}

func validateTimeZone(spec map[string]any, p *field.Path) field.ErrorList {
	if !Has(spec, "timeZone") {
		return nil
	}
	tz := Str(spec, "timeZone")
	if tz == "" {
		return field.ErrorList{field.Invalid(p, tz, "timeZone must be nil or non-empty string")}
	}
	for _, part := range strings.Split(tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTZPart(part) {
			return field.ErrorList{field.Invalid(p, tz, "unknown time zone "+tz)}
		}
	}
	var errs field.ErrorList
	if strings.EqualFold(tz, "Local") {
		errs = append(errs, field.Invalid(p, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
	}
	if _, err := time.LoadLocation(tz); err != nil && haveZoneDB() {
		errs = append(errs, field.Invalid(p, tz, err.Error()))
	}
	return errs
}

// haveZoneDB reports whether time.LoadLocation can read a zone database.
// The browser (wasm) has none and time/tzdata would add ~450 kB, so there
// a time zone that passes the name checks is accepted.
var haveZoneDB = sync.OnceValue(func() bool {
	_, err := time.LoadLocation("Europe/Berlin")
	return err == nil
})
