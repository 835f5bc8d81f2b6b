package dev.parallax.engine.memory;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Backs large off-heap regions with 2 MiB pages where Linux offers transparent huge pages, best
 * effort (like PostgreSQL's {@code huge_pages = try}): anywhere else, or when the kernel refuses,
 * memory stays on ordinary pages and nothing else changes.
 * <p>
 * Why: a point query touches a few cache lines at random in gigabytes of pages and index, and with
 * 4 KiB pages nearly every one of those touches also misses the TLB (a page walk, costlier still
 * in a virtual machine). Measured on this project's 2-core KVM machine, 10M-key Chronicle Map of a
 * primary key, alternating rounds in one JVM: 894 -> 565 ns of CPU per lookup once its memory sat on
 * huge pages. Most machines run THP in {@code madvise} mode, so nothing happens unless we ask.
 * <p>
 * Needs native access ({@code --enable-native-access=ALL-UNNAMED}, which every Parallax launch
 * carries for Chronicle Map already).
 */
public final class HugePages {
    /** The huge page size on x86-64 and (with 4 KiB base pages) aarch64 Linux. */
    public static final long SIZE = 2L << 20;

    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    /** Linux 6.1+: back the range with huge pages now, copying what is there (EINVAL before). */
    private static final int MADV_COLLAPSE = 25;
    private static final long MAP_FAILED = -1L;

    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle MADVISE;

    static {
        MethodHandle mmap = null;
        MethodHandle munmap = null;
        MethodHandle madvise = null;
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.contains("linux") && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(), FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                        ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_LONG));
                munmap = linker.downcallHandle(libc.find("munmap").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
                madvise = linker.downcallHandle(libc.find("madvise").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
            } catch (RuntimeException | Error unavailable) {
                // No native access or no such symbols: ordinary pages.
                mmap = null;
                munmap = null;
                madvise = null;
            }
        }
        MMAP = mmap;
        MUNMAP = munmap;
        MADVISE = madvise;
    }

    private HugePages() {
    }

    /** Whether this platform can be asked for huge pages at all. */
    public static boolean available() {
        return MMAP != null;
    }

    /**
     * {@code bytes} of zeroed memory aligned to {@link #SIZE}, mapped straight from the kernel and
     * advised to be backed by huge pages as it is first touched (so nothing is copied or zeroed twice),
     * unmapped when {@code arena} closes; null when the platform cannot, or {@code bytes} is below
     * one huge page (the caller then allocates as usual).
     */
    static MemorySegment map(long bytes, Arena arena) {
        if (MMAP == null || bytes < SIZE) {
            return null;
        }
        long length = (bytes + SIZE - 1) & -SIZE;
        // Over-map by one huge page and trim, so the region starts on a huge page boundary.
        long reserved = length + SIZE;
        long address = call(MMAP, 0L, reserved, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
        if (address == MAP_FAILED || address == 0) {
            return null;
        }
        long aligned = (address + SIZE - 1) & -SIZE;
        if (aligned > address) {
            unmap(address, aligned - address);
        }
        long end = aligned + length;
        if (address + reserved > end) {
            unmap(end, address + reserved - end);
        }
        advise(aligned, length, MADV_HUGEPAGE);
        return MemorySegment.ofAddress(aligned).reinterpret(bytes, arena, ignored -> unmap(aligned, length));
    }

    /**
     * Asks the kernel to back the whole huge pages inside {@code [address, address + length)} with
     * huge pages: from now on for untouched memory, and at once (copying) for memory already touched.
     * For memory a library allocated itself (Chronicle Map's). Best effort; does nothing below one
     * huge page or where unavailable.
     */
    public static void adviseAndCollapse(long address, long length) {
        if (MADVISE == null) {
            return;
        }
        long start = (address + SIZE - 1) & -SIZE;
        long end = (address + length) & -SIZE;
        if (end <= start) {
            return;
        }
        advise(start, end - start, MADV_HUGEPAGE);
        advise(start, end - start, MADV_COLLAPSE);
    }

    private static void advise(long address, long length, int advice) {
        // A refusal (THP switched off, an older kernel without MADV_COLLAPSE) leaves ordinary pages: fine.
        callInt(MADVISE, address, length, advice);
    }

    private static void unmap(long address, long length) {
        callInt(MUNMAP, address, length);
    }

    // The downcalls declare no checked exceptions; a failure of the call itself counts as a refusal.
    private static long call(MethodHandle handle, long address, long length, int protection, int flags, int descriptor, long offset) {
        try {
            return (long) handle.invokeExact(address, length, protection, flags, descriptor, offset);
        } catch (Throwable failure) {
            return MAP_FAILED;
        }
    }

    private static int callInt(MethodHandle handle, long address, long length, int advice) {
        try {
            return (int) handle.invokeExact(address, length, advice);
        } catch (Throwable failure) {
            return -1;
        }
    }

    private static int callInt(MethodHandle handle, long address, long length) {
        try {
            return (int) handle.invokeExact(address, length);
        } catch (Throwable failure) {
            return -1;
        }
    }
}
