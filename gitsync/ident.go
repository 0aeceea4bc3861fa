package gitsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"

	"github.com/taskmd/taskmd/workspace"
)

// A machine's lease ref is written by one clone only. A copied clone (a
// disk image, a folder copied with its .taskmd/) keeps the machine file,
// and two clones with one id would overwrite each other's leases: the
// tasks of the one that died would then never be taken over while the
// other renews. So a clone pushes its lease ref only while it is the
// commit this clone last pushed there (git push
// --force-with-lease=<ref>:<commit>, in the claim's atomic push too), or
// makes it when the remote has none. A ref this clone never pushed, or
// that moved since, belongs to another clone with the same id: this
// clone takes a new id (the machine file is rewritten) and pushes its
// leases there; the other clone keeps the id, and whatever of this
// clone's leases the old ref still names lapses.

// errLeaseMoved is a push refused because this machine's lease ref on the
// remote is not what this clone last pushed.
var errLeaseMoved = errors.New("the machine's lease ref moved on the remote")

// pushedRef records the lease commit this clone last pushed for machine
// id.
func (s *Sync) pushedRef(id string) string { return "refs/taskmd/" + s.remote + "/pushed-leases/" + id }

// machineID is the clone's machine id.
func (s *Sync) machineID() string {
	s.idMu.Lock()
	defer s.idMu.Unlock()
	return s.id
}

// leaseLease is the --force-with-lease option of a push of this machine's
// lease ref: the commit this clone last pushed there, or no ref at all
// when it never pushed one. moved reports that the clone never pushed
// the ref but fetched one: another clone uses the id.
func (s *Sync) leaseLease(ctx context.Context) (opt string, moved bool, err error) {
	id := s.machineID()
	pushed, fetched := s.pushedRef(id), s.trackedLeases()+id
	out, err := s.git(ctx, "for-each-ref", "--format=%(objectname) %(refname)", pushed, fetched)
	if err != nil {
		return "", false, err
	}
	var expect string
	moved = false
	for _, line := range strings.Split(out, "\n") {
		sha, ref, _ := strings.Cut(line, " ")
		switch ref {
		case pushed:
			expect = sha
		case fetched:
			moved = true
		}
	}
	if expect == "" && moved {
		return "", true, nil
	}
	return "--force-with-lease=" + leaseRef(id) + ":" + expect, false, nil
}

// pushedLeases records commit as the lease commit this clone pushed. A
// record that fails (a crash) only costs the clone its id: its next push
// finds the ref moved and takes a new one.
func (s *Sync) pushedLeases(ctx context.Context, commit string) {
	_, _ = s.git(context.WithoutCancel(ctx), "update-ref", s.pushedRef(s.machineID()), commit)
}

// syncID takes the id in the machine file when another process of this
// clone changed it (it took a new one), under tx, which locks the file.
func (s *Sync) syncID(tx *workspace.Tx) error {
	return s.setID(s.machine(tx))
}

// renewID gives the clone a new machine id, under tx, which locks the
// machine file: another clone uses the old one.
func (s *Sync) renewID(tx *workspace.Tx) error {
	return s.setID(newMachine(tx))
}

// setID makes id the clone's machine id, unless err.
func (s *Sync) setID(id string, err error) error {
	if err != nil {
		return err
	}
	s.idMu.Lock()
	s.id = id
	s.idMu.Unlock()
	return nil
}

// newMachine makes a machine id and writes it to the machine file.
func newMachine(tx *workspace.Tx) (string, error) {
	var b [6]byte
	_, _ = rand.Read(b[:])
	id := "m-" + hex.EncodeToString(b[:])
	return id, tx.Write(machineFile, []byte(id+"\n"))
}

// sendLeases pushes this clone's leases (all of them with force, else
// only when the remote's copy lacks a claim or token of theirs) to the
// machine's ref; when another clone uses the machine's id, under a new
// one. offline is git's message when the remote could not be reached.
func (s *Sync) sendLeases(ctx context.Context, tx *workspace.Tx, force bool) (pushed bool, offline string, err error) {
	if err := s.syncID(tx); err != nil {
		return false, "", err
	}
	for range 2 {
		opt, moved, err := s.leaseLease(ctx)
		if err != nil {
			return false, "", err
		}
		if !moved {
			refspec, commit, err := s.leaseUpdate(ctx, force)
			if err != nil || refspec == "" {
				return false, "", err
			}
			_, offline, err = s.pushRefs(ctx, opt, refspec)
			if err == nil && offline == "" {
				s.pushedLeases(ctx, commit)
				return true, "", nil
			}
			if !errors.Is(err, errLeaseMoved) {
				return false, offline, err
			}
		}
		if err := s.renewID(tx); err != nil {
			return false, "", err
		}
	}
	return false, "", errLeaseMoved
}
