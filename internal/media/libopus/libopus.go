// Package libopus is Xiph's libopus in process, without cgo and without a child process: the codec compiled to
// WebAssembly (the build the npm package @evan/opus ships, pinned in third_party/libopus/package-lock.json and
// copied into wasm/ by `make opus`) and run by wazero, a WebAssembly runtime written in Go (docs/adr/0041).
//
// An Encoder or a Decoder is one codec state inside one of a few WebAssembly instances. An instance runs one call
// at a time (its lock), holds up to statesPerInstance states, and a new one is made when every instance is full,
// so calls on different states mostly run in parallel. Encode and Decode copy the samples and the packet in and
// out of the instance's memory and allocate nothing.
package libopus

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// wasmDir holds libopus.wasm once `make opus` (a prerequisite of `make server`) has copied it there; a tree built
// without it (a bare `go build`) has only the README, and every constructor returns ErrUnavailable.
//
//go:embed wasm
var wasmDir embed.FS

// ErrUnavailable: this binary was built without libopus.wasm.
var ErrUnavailable = errors.New("libopus: this build has no libopus.wasm (build with make, which runs `make opus`)")

// Application is the encoder's tuning (OPUS_APPLICATION_*).
type Application int

// VoIP is the application for speech (OPUS_APPLICATION_VOIP): the encoder favours intelligibility.
const VoIP Application = 2048

// MaxPacket is the largest Opus packet Encode writes (RFC 6716 §3.2.1: 1275 bytes a frame, up to 3 frames).
const MaxPacket = 4000

// MaxFrame is the most samples a channel a Decode may return: 120 ms at 48 kHz.
const MaxFrame = 5760

// statesPerInstance: how many encoders and decoders share one instance (and its lock). One 20 ms encode takes
// about 0.15–0.3 ms here, so 16 states at 50 frames a second keep an instance busy a fifth of the time at most.
const statesPerInstance = 16

// The ctl requests used here (opus_defines.h).
const (
	setBitrate    = 4002
	setComplexity = 4010
	setSignal     = 4024
	signalVoice   = 3001
)

// runtime is the compiled module and the instances made from it, made on first use.
var runtime struct {
	once      sync.Once
	err       error
	rt        wazero.Runtime
	mod       wazero.CompiledModule
	mu        sync.Mutex
	instances []*instance
}

func load() error {
	runtime.once.Do(func() {
		bin, err := wasmDir.ReadFile("wasm/libopus.wasm")
		if err != nil {
			runtime.err = ErrUnavailable
			return
		}
		ctx := context.Background()
		rt := wazero.NewRuntime(ctx)
		if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
			runtime.err = fmt.Errorf("libopus: wasi: %w", err)
			return
		}
		// The build tells its JavaScript host when its memory grew (to renew its views of it); wazero's
		// api.Memory reads the current size on each access, so there is nothing to renew.
		if _, err := rt.NewHostModuleBuilder("env").NewFunctionBuilder().WithFunc(func(uint32) {}).
			Export("emscripten_notify_memory_growth").Instantiate(ctx); err != nil {
			runtime.err = fmt.Errorf("libopus: host module: %w", err)
			return
		}
		mod, err := rt.CompileModule(ctx, bin)
		if err != nil {
			runtime.err = fmt.Errorf("libopus: compile: %w", err)
			return
		}
		runtime.rt, runtime.mod = rt, mod
	})
	return runtime.err
}

// Available says whether this build can encode and decode (nil), or why not.
func Available() error { return load() }

// instance is one instantiated module: its exports, scratch buffers in its memory for the samples and the
// packet of a call, and how many states it holds.
type instance struct {
	mu     sync.Mutex
	mod    api.Module
	mem    api.Memory
	fn     map[string]api.Function
	stack  [6]uint64
	pcm    uint32 // MaxFrame*2 samples of 16 bits
	packet uint32 // MaxPacket bytes
	states int    // guarded by runtime.mu
}

var exports = []string{"malloc", "free", "opus_strerror", "opus_encoder_get_size", "opus_encoder_init", "opus_encode",
	"opus_encoder_ctl_set", "opus_decoder_get_size", "opus_decoder_init", "opus_decode"}

func newInstance() (*instance, error) {
	ctx := context.Background()
	// Anonymous (no name), so that any number of instances can live in one runtime.
	mod, err := runtime.rt.InstantiateModule(ctx, runtime.mod, wazero.NewModuleConfig().WithName("").
		WithStartFunctions("_initialize"))
	if err != nil {
		return nil, fmt.Errorf("libopus: instantiate: %w", err)
	}
	in := &instance{mod: mod, mem: mod.Memory(), fn: make(map[string]api.Function, len(exports))}
	for _, name := range exports {
		if in.fn[name] = mod.ExportedFunction(name); in.fn[name] == nil {
			_ = mod.Close(ctx)
			return nil, fmt.Errorf("libopus: the module exports no %s", name)
		}
	}
	if in.pcm, err = in.malloc(MaxFrame * 2 * 2); err == nil {
		in.packet, err = in.malloc(MaxPacket)
	}
	if err != nil {
		_ = mod.Close(ctx)
		return nil, err
	}
	return in, nil
}

// acquire returns the instance with the fewest states, or a new one when all are full, counting the new state.
func acquire() (*instance, error) {
	if err := load(); err != nil {
		return nil, err
	}
	runtime.mu.Lock()
	defer runtime.mu.Unlock()
	var best *instance
	for _, in := range runtime.instances {
		if in.states < statesPerInstance && (best == nil || in.states < best.states) {
			best = in
		}
	}
	if best == nil {
		in, err := newInstance()
		if err != nil {
			return nil, err
		}
		runtime.instances = append(runtime.instances, in)
		best = in
	}
	best.states++
	return best, nil
}

func release(in *instance) {
	runtime.mu.Lock()
	in.states--
	runtime.mu.Unlock()
}

// call runs an export with args on the instance's stack; the caller holds in.mu.
func (in *instance) call(name string, args ...uint64) (int32, error) {
	copy(in.stack[:], args)
	if err := in.fn[name].CallWithStack(context.Background(), in.stack[:]); err != nil {
		return 0, fmt.Errorf("libopus: %s: %w", name, err)
	}
	return int32(in.stack[0]), nil
}

func (in *instance) malloc(n int) (uint32, error) {
	p, err := in.call("malloc", uint64(n))
	if err == nil && p == 0 {
		err = errors.New("libopus: out of memory")
	}
	return uint32(p), err
}

// codecError is a negative libopus result as an error, with libopus's own words for it.
func (in *instance) codecError(op string, code int32) error {
	text := fmt.Sprintf("error %d", code)
	if p, err := in.call("opus_strerror", uint64(uint32(code))); err == nil {
		if b, ok := in.mem.Read(uint32(p), 64); ok {
			for i, c := range b {
				if c == 0 {
					text = string(b[:i])
					break
				}
			}
		}
	}
	return fmt.Errorf("libopus: %s: %s", op, text)
}

// state is one encoder's or decoder's memory in its instance.
type state struct {
	in  *instance
	ptr uint32
}

func newState(sizeFn, initFn string, rate, channels int, extra ...uint64) (state, error) {
	switch rate {
	case 8000, 12000, 16000, 24000, 48000:
	default:
		return state{}, fmt.Errorf("libopus: a sample rate of %d Hz (8, 12, 16, 24 or 48 kHz)", rate)
	}
	if channels != 1 && channels != 2 {
		return state{}, fmt.Errorf("libopus: %d channels (1 or 2)", channels)
	}
	in, err := acquire()
	if err != nil {
		return state{}, err
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	size, err := in.call(sizeFn, uint64(channels))
	var ptr uint32
	if err == nil {
		ptr, err = in.malloc(int(size))
	}
	if err != nil {
		release(in)
		return state{}, err
	}
	code, err := in.call(initFn, append([]uint64{uint64(ptr), uint64(rate), uint64(channels)}, extra...)...)
	if err == nil && code < 0 {
		err = in.codecError(initFn, code)
	}
	if err != nil {
		_, _ = in.call("free", uint64(ptr))
		release(in)
		return state{}, err
	}
	return state{in: in, ptr: ptr}, nil
}

func (s *state) close() {
	if s.in == nil {
		return
	}
	s.in.mu.Lock()
	_, _ = s.in.call("free", uint64(s.ptr))
	s.in.mu.Unlock()
	release(s.in)
	s.in = nil
}

// putSamples writes pcm into the instance's sample buffer; the caller holds in.mu.
func (in *instance) putSamples(pcm []int16) bool {
	b, ok := in.mem.Read(in.pcm, uint32(2*len(pcm)))
	if !ok {
		return false
	}
	for i, v := range pcm {
		b[2*i], b[2*i+1] = byte(v), byte(uint16(v)>>8)
	}
	return true
}

// getSamples reads n samples of the instance's sample buffer into pcm; the caller holds in.mu.
func (in *instance) getSamples(pcm []int16, n int) {
	b, _ := in.mem.Read(in.pcm, uint32(2*n))
	for i := range n {
		pcm[i] = int16(uint16(b[2*i]) | uint16(b[2*i+1])<<8)
	}
}
