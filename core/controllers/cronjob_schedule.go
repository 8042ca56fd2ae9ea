package controllers

import (
	"errors"
	"time"

	"github.com/robfig/cron/v3"
)

// The schedule arithmetic of pkg/controller/cronjob/utils.go.

type missed int

const (
	noneMissed missed = iota
	fewMissed
	manyMissed
)

// mostRecentScheduleTime returns the earliest time considered (last
// schedule or creation, or now − startingDeadlineSeconds), the most recent
// schedule time not after now (nil if none), and how many were missed.
//
// Example: "*/5 * * * *", created 10:02, last scheduled never, now 10:11 →
// earliest 10:02, most recent 10:10, fewMissed.
func mostRecentScheduleTime(cj, st obj, now time.Time, sched cron.Schedule, withDeadline bool) (time.Time, *time.Time, missed, error) {
	earliest := parseTime(str(cj, "metadata", "creationTimestamp"))
	if last := parseTime(str(st, "lastScheduleTime")); !last.IsZero() {
		earliest = last
	}
	// not in kube, whose times cannot be garbage: a time so old that
	// now − it overflows a Duration (292 years) would make the walk below
	// step minute by minute through centuries
	if floor := now.AddDate(-200, 0, 0); earliest.Before(floor) {
		earliest = floor
	}
	if d, ok := num(cj, "spec", "startingDeadlineSeconds"); withDeadline && ok {
		if deadline := now.Add(-time.Duration(d) * time.Second); deadline.After(earliest) {
			earliest = deadline
		}
	}
	t1 := sched.Next(earliest)
	t2 := sched.Next(t1)
	if now.Before(t1) {
		return earliest, nil, noneMissed, nil
	}
	if now.Before(t2) {
		return earliest, &t1, noneMissed, nil
	}
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if between < 1 {
		return earliest, nil, noneMissed, errors.New("time difference between two schedules is less than 1 second")
	}
	elapsed := int64(now.Sub(t1).Seconds())
	n := elapsed/between + 1
	var recent time.Time
	potential := t1.Add(time.Duration((n-1-1)*between) * time.Second)
	for t := sched.Next(potential); !t.After(now); t = sched.Next(t) {
		recent = t
	}
	ms := noneMissed
	switch {
	case n > 100:
		ms = manyMissed
	case n > 0:
		ms = fewMissed
	}
	if recent.IsZero() {
		return earliest, nil, ms, nil
	}
	return earliest, &recent, ms, nil
}

// nextScheduleDuration is nextScheduleTimeDuration: how long until the
// schedule time after the most recent one, plus 100 ms.
func nextScheduleDuration(cj, st obj, now time.Time, sched cron.Schedule) *time.Duration {
	earliest, recent, ms, err := mostRecentScheduleTime(cj, st, now, sched, false)
	switch {
	case err != nil:
		recent = &now
	case recent == nil && ms == noneMissed:
		recent = &earliest
	case recent == nil:
		recent = &now
	}
	next := sched.Next(*recent)
	if next.IsZero() {
		return nil // robfig/cron finds no time within five years: no timer
	}
	d := next.Add(nextScheduleDelta).Sub(now)
	return &d
}

// nextScheduleTime is the unmet schedule time to start now, or nil; more
// than 100 missed times are reported as TooManyMissedTimes.
func (m *Manager) nextScheduleTime(cj, st obj, now time.Time, sched cron.Schedule) (*time.Time, error) {
	_, recent, ms, err := mostRecentScheduleTime(cj, st, now, sched, true)
	if recent == nil || recent.After(now) {
		return nil, err
	}
	if ms == manyMissed {
		m.record(cj, kCronJobs, cronJobController, "Warning", "TooManyMissedTimes",
			"too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
	}
	return recent, err
}
