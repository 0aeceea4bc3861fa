package taskflow

import "time"

// DefaultReferenceDepth is how many levels of @/ references a start loads
// unless WithReferenceDepth says otherwise.
const DefaultReferenceDepth = 3

// An Option is one setting of a Config. It is sealed: options are made by
// this package's constructors. The packages on top never hand it out: each
// wraps it in an Option type of its own (see Configure), so that one
// package's option cannot be passed to another's constructor.
type Option interface{ apply(*Config) }

// Config is the result of the options.
type Config struct {
	Now   func() time.Time // the clock; completion dates and archive names use it in UTC
	Depth int              // levels of @/ references a start loads
	// AgentTimeout is how long an agent stays online after its last
	// heartbeat; HeartbeatInterval is the interval a heartbeat advises.
	// Zero means the agent package's default.
	AgentTimeout, HeartbeatInterval time.Duration
	// Override is the person who writes over agents' claims (see
	// WithOverride); "" for none.
	Override string
}

type optionFunc func(*Config)

func (f optionFunc) apply(c *Config) { f(c) }

// WithClock sets the clock. A nil clock is ignored (the default, time.Now,
// stays), as is a nil Option.
func WithClock(now func() time.Time) Option {
	return optionFunc(func(c *Config) {
		if now != nil {
			c.Now = now
		}
	})
}

// WithReferenceDepth sets how many levels of @/ references a start loads:
// 1 the task's own references only, 0 or less none.
func WithReferenceDepth(n int) Option {
	return optionFunc(func(c *Config) { c.Depth = max(n, 0) })
}

// WithOverride makes the task system's writes a person's override of
// agents' claims: a write on a task an agent holds ends that claim and
// records the person in the task's Override field, where it would
// otherwise be STALE_CLAIM. For people (a command's --force), never for
// agents.
func WithOverride(person string) Option {
	return optionFunc(func(c *Config) { c.Override = person })
}

// WithAgentTimeout sets Config.AgentTimeout; zero or less is ignored.
func WithAgentTimeout(d time.Duration) Option {
	return optionFunc(func(c *Config) {
		if d > 0 {
			c.AgentTimeout = d
		}
	})
}

// WithHeartbeatInterval sets Config.HeartbeatInterval; zero or less is
// ignored.
func WithHeartbeatInterval(d time.Duration) Option {
	return optionFunc(func(c *Config) {
		if d > 0 {
			c.HeartbeatInterval = d
		}
	})
}

// NewConfig applies opts, in order, to the defaults; nil options are
// ignored.
func NewConfig(opts []Option) Config {
	c := Config{Now: time.Now, Depth: DefaultReferenceDepth}
	for _, o := range opts {
		if o != nil {
			o.apply(&c)
		}
	}
	return c
}

// Configure is NewConfig of the options that a package's own options wrap:
// unwrap returns the Option one of them holds (nil for its zero value).
func Configure[O any](opts []O, unwrap func(O) Option) Config {
	inner := make([]Option, len(opts))
	for i, o := range opts {
		inner[i] = unwrap(o)
	}
	return NewConfig(inner)
}

// Today is the clock's time in UTC.
func (c Config) Today() time.Time { return c.Now().UTC() }
