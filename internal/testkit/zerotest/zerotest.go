package zerotest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/taskmd/taskmd/agent"
	"github.com/taskmd/taskmd/taskdoc"
)

// Methods calls every exported method of v with made-up arguments (name
// for each string) and fails t when one panics, or returns an error that
// is neither WORKSPACE_NOT_OPEN nor a refusal of its arguments (see
// Refusals), or no error at all. Methods that return no error (With...
// options, Root) only must not panic. At least one method must answer
// WORKSPACE_NOT_OPEN, so that a value whose every method refuses the
// made-up arguments does not pass unseen. skip names methods left out,
// with the reason in the caller's test.
func Methods(t *testing.T, v any, name string, skip ...string) {
	t.Helper()
	rv := reflect.ValueOf(v)
	typ := rv.Type()
	if typ.NumMethod() == 0 {
		t.Fatalf("%s has no exported methods", typ)
	}
	notOpen := 0
	for i := range typ.NumMethod() {
		m := typ.Method(i)
		if slices.Contains(skip, m.Name) {
			continue
		}
		t.Run(m.Name, func(t *testing.T) {
			if check(t, typ.String()+"."+m.Name, rv.Method(i), name) {
				notOpen++
			}
		})
	}
	if notOpen == 0 {
		t.Errorf("no method of %s answered WORKSPACE_NOT_OPEN", typ)
	}
}

// Funcs calls each function of fns (by name) as Methods calls a method.
func Funcs(t *testing.T, fns map[string]any, name string) {
	t.Helper()
	for fn, f := range fns {
		t.Run(fn, func(t *testing.T) { check(t, fn, reflect.ValueOf(f), name) })
	}
}

// Refusals are the codes of a call refused for its arguments before it
// reaches the workspace: the made-up arguments are not valid for every
// method, and such a call is as clear as WORKSPACE_NOT_OPEN.
var Refusals = []taskdoc.Code{taskdoc.CodeInvalidArguments, taskdoc.CodeInvalidAddress,
	taskdoc.CodeInvalidTask, taskdoc.CodeUnknownStatus, agent.CodeAgentNotFound}

var errorType = reflect.TypeFor[error]()

// check calls fn and reports whether it answered WORKSPACE_NOT_OPEN.
func check(t *testing.T, what string, fn reflect.Value, name string) bool {
	ft := fn.Type()
	args := make([]reflect.Value, ft.NumIn())
	for i := range args {
		in := ft.In(i)
		if ft.IsVariadic() && i == len(args)-1 {
			args[i] = reflect.MakeSlice(in, 0, 0)
			continue
		}
		args[i] = arg(in, name)
	}
	var out []reflect.Value
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%s panics: %v", what, r)
			}
		}()
		if ft.IsVariadic() {
			out = fn.CallSlice(args)
		} else {
			out = fn.Call(args)
		}
	}()
	if len(out) == 0 || out[len(out)-1].Type() != errorType {
		return false
	}
	err, _ := out[len(out)-1].Interface().(error)
	var e *taskdoc.Error
	switch {
	case errors.Is(err, taskdoc.ErrNotOpen):
		return true
	case errors.As(err, &e) && slices.Contains(Refusals, e.Code):
	default:
		t.Errorf("%s: got %v (%s), want WORKSPACE_NOT_OPEN", what, err, taskdoc.CodeOf(err))
	}
	return false
}

// live is the context of the calls: one that has not ended, so that the
// workspace's own check is what answers; a call that waits for something
// is wrong here and ends with the test's deadline.
var live = context.Background()

var contextType = reflect.TypeFor[context.Context]()

func arg(in reflect.Type, name string) reflect.Value {
	switch {
	case in == contextType:
		return reflect.ValueOf(live)
	case in.Kind() == reflect.String:
		return reflect.ValueOf(name).Convert(in)
	case in.Kind() == reflect.Slice && in.Elem().Kind() == reflect.String:
		s := reflect.MakeSlice(in, 1, 1)
		s.Index(0).Set(reflect.ValueOf(name).Convert(in.Elem()))
		return s
	}
	return reflect.Zero(in)
}
