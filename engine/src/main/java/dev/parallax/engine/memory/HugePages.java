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
 * Backs long-lived, randomly read off-heap memory with 2 MiB pages where Linux offers transparent
 * huge pages, best effort (like PostgreSQL's {@code huge_pages = try}): anywhere else, or when the
 * kernel refuses, memory stays on ordinary pages and nothing else changes.
 * <p>
 * Why: a point query touches a few cache lines at random in gigabytes of pages and index, and with
 * 4 KiB pages nearly every one of those touches also misses the TLB (a page walk, costlier still
 * in a virtual machine). Measured on this project's 2-core KVM machine, 10M-key Chronicle Map of a
 * primary key, alternating rounds in one JVM: 894 -> 565 ns of CPU per lookup once its memory sat on
 * huge pages. Most machines run THP in {@code madvise} mode, so nothing happens unless we ask.
 * <p>
 * The policy (see {@link MemoryManager#allocate}): large blocks are {@link #map mapped} on a huge
 * page boundary but never advised at allocation; their owner asks for huge pages
 * ({@link #adviseAndCollapse}) once the memory has settled, e.g. a table's full slabs after the
 * statement that filled them. Advising at allocation made every fresh 2 MiB fault take a whole free
 * huge page, zero it, and compact memory to find one when there was none: in a virtual machine whose
 * free memory is reported back to the host (virtio-balloon free page reporting, as here), such a
 * page is usually also cold on the host. Faulting 1 GiB, this machine: 0.8 s of CPU on 4 KiB pages,
 * 3.0 s advised; the 10M-row sort-into-table benchmark, whose target table is rebuilt every
 * statement, took 1.36–1.85x as long with THP on as
 * with THP off (same build, quiet machine).
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
     * {@code bytes} of zeroed memory aligned to {@link #SIZE}, mapped straight from the kernel on
     * ordinary pages (not advised: see the class comment), so that {@link #adviseAndCollapse} can
     * later turn every whole 2 MiB of it into one huge page; unmapped when {@code arena} closes. Null
     * when the platform cannot, or {@code bytes} is below one huge page (the caller then allocates as
     * usual).
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
        return MemorySegment.ofAddress(aligned).reinterpret(bytes, arena, ignored -> unmap(aligned, length));
    }

    /**
     * Asks the kernel to back the whole huge pages inside {@code [address, address + length)} with
     * huge pages: from now on for untouched memory, and at once (copying, in the calling thread) for
     * memory already touched. For memory that has settled and will be read at random. Best effort:
     * returns whether the kernel did both; false below one huge page, where unavailable, or when it
     * refused (THP switched off, a kernel before 6.1 without {@code MADV_COLLAPSE}, no free huge page),
     * in which case the memory stays as it was, contents included.
     * <p>
     * The range must stay mapped for the duration of the call: its owner must not unmap it meanwhile
     * (another mapping could take its place and be advised instead).
     */
    public static boolean adviseAndCollapse(long address, long length) {
        if (MADVISE == null) {
            return false;
        }
        long start = (address + SIZE - 1) & -SIZE;
        long end = (address + length) & -SIZE;
        if (end <= start) {
            return false;
        }
        boolean advised = advise(start, end - start, MADV_HUGEPAGE);
        return advised & advise(start, end - start, MADV_COLLAPSE);
    }

    private static boolean advise(long address, long length, int advice) {
        // A refusal (THP switched off, an older kernel without MADV_COLLAPSE) leaves ordinary pages: fine.
        return callInt(MADVISE, address, length, advice) == 0;
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
