package dev.parallax.engine.memory;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Starts loading up to ten cache lines without waiting for them: the x86 {@code PREFETCHT0}
 * instruction, which Java cannot issue (the JDK removed {@code Unsafe.prefetchRead}), called
 * through a fifteen-instruction function written into executable memory once and reached by a
 * {@link Linker.Option#critical critical} downcall (about 12 ns a call on this project's machine).
 * <p>
 * Why not just load the lines, as {@code PagedTableStorage.prefetchAppendLines} does where this is
 * unavailable: a load that misses holds up the retirement of everything behind it once the
 * reorder buffer (a few hundred instructions) is full, so lines loaded ahead of a few hundred ns
 * of other work still cost their whole latency; a prefetch retires at once and the lines arrive
 * behind that work. A prefetch also never faults, so it may be handed an address read without any
 * lock or registration, even one whose memory was freed meanwhile: at worst it loads nothing
 * useful. Nothing may depend on it for correctness.
 * <p>
 * Available on x86-64 Linux with native access ({@code --enable-native-access=ALL-UNNAMED}, which
 * every Parallax launch carries for Chronicle Map already); elsewhere {@link #available()} is
 * false and callers keep their fallback.
 */
public final class CacheLinePrefetch {
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int PROT_READ_EXECUTE = 0x1 | 0x4;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final long MAP_FAILED = -1L;
    private static final long CODE_BYTES = 4096;

    /**
     * {@code void prefetch(long a0, ..., long a9)} in the System V x86-64 calling convention: the
     * first six addresses arrive in rdi, rsi, rdx, rcx, r8, r9, the last four on the stack above
     * the return address.
     */
    private static final byte[] X86_64_CODE = {
            0x0F, 0x18, 0x0F,                   // prefetcht0 [rdi]
            0x0F, 0x18, 0x0E,                   // prefetcht0 [rsi]
            0x0F, 0x18, 0x0A,                   // prefetcht0 [rdx]
            0x0F, 0x18, 0x09,                   // prefetcht0 [rcx]
            0x41, 0x0F, 0x18, 0x08,             // prefetcht0 [r8]
            0x41, 0x0F, 0x18, 0x09,             // prefetcht0 [r9]
            0x48, (byte) 0x8B, 0x44, 0x24, 0x08, // mov rax, [rsp + 8]
            0x0F, 0x18, 0x08,                   // prefetcht0 [rax]
            0x48, (byte) 0x8B, 0x44, 0x24, 0x10, // mov rax, [rsp + 16]
            0x0F, 0x18, 0x08,                   // prefetcht0 [rax]
            0x48, (byte) 0x8B, 0x44, 0x24, 0x18, // mov rax, [rsp + 24]
            0x0F, 0x18, 0x08,                   // prefetcht0 [rax]
            0x48, (byte) 0x8B, 0x44, 0x24, 0x20, // mov rax, [rsp + 32]
            0x0F, 0x18, 0x08,                   // prefetcht0 [rax]
            (byte) 0xC3,                        // ret
    };

    private static final MethodHandle PREFETCH = link();

    private CacheLinePrefetch() {
    }

    /** Whether {@link #prefetch} issues prefetches here. */
    public static boolean available() {
        return PREFETCH != null;
    }

    /**
     * Starts loading the cache lines holding the ten addresses into the caches and returns at
     * once; repeat an address to prefetch fewer lines. Any address is allowed, also 0 or memory
     * that is not mapped. Does nothing where not {@link #available()}.
     */
    public static void prefetch(long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9) {
        if (PREFETCH == null) {
            return;
        }
        try {
            PREFETCH.invokeExact(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9);
        } catch (Throwable impossible) {
            throw new IllegalStateException("prefetch failed", impossible);
        }
    }

    /** The downcall to the function written into fresh executable memory, or null where that cannot be done. */
    private static MethodHandle link() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            MethodHandle mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG));
            MethodHandle mprotect = linker.downcallHandle(libc.find("mprotect").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
            long address = (long) mmap.invokeExact(0L, CODE_BYTES, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
            if (address == MAP_FAILED || address == 0) {
                return null;
            }
            MemorySegment code = MemorySegment.ofAddress(address).reinterpret(CODE_BYTES);
            MemorySegment.copy(X86_64_CODE, 0, code, ValueLayout.JAVA_BYTE, 0, X86_64_CODE.length);
            // Writable, then executable, never both (W^X): systems that forbid writable code allow this.
            if ((int) mprotect.invokeExact(address, CODE_BYTES, PROT_READ_EXECUTE) != 0) {
                return null;
            }
            // Never unmapped: one page for the life of the process.
            return linker.downcallHandle(code, FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG), Linker.Option.critical(false));
        } catch (Throwable unavailable) {
            // No native access (IllegalCallerException), no such symbols: callers keep their fallback.
            return null;
        }
    }
}
