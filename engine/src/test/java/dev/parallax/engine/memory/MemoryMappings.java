package dev.parallax.engine.memory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Reads what the kernel says about this process's mappings ({@code /proc/self/smaps}), so tests can
 * assert which memory was advised to use huge pages: the {@code hg} flag of a mapping's
 * {@code VmFlags} is set by {@code madvise(MADV_HUGEPAGE)} and by nothing else.
 */
public final class MemoryMappings {
    private static final Path SMAPS = Path.of("/proc/self/smaps");

    private MemoryMappings() {
    }

    /** Whether the kernel reports mapping flags here (Linux with {@code /proc}) and huge pages can be asked for. */
    public static boolean flagsVisible() {
        return HugePages.available() && Files.isReadable(SMAPS);
    }

    /** Whether the mapping holding {@code address} is advised to use huge pages. */
    public static boolean hugePagesAdvised(long address) {
        return flags(address).contains("hg");
    }

    /** The {@code VmFlags} of the mapping holding {@code address}. */
    public static Set<String> flags(long address) {
        List<String> lines;
        try {
            lines = Files.readAllLines(SMAPS);
        } catch (IOException unreadable) {
            throw new IllegalStateException("cannot read " + SMAPS, unreadable);
        }
        boolean inside = false;
        for (String line : lines) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash > 0 && space > dash && isHex(line, 0, dash) && isHex(line, dash + 1, space)) {
                long start = Long.parseUnsignedLong(line.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(line.substring(dash + 1, space), 16);
                inside = Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
            } else if (inside && line.startsWith("VmFlags:")) {
                return Set.of(line.substring("VmFlags:".length()).trim().split("\\s+"));
            }
        }
        throw new IllegalStateException("no mapping holds address " + Long.toHexString(address));
    }

    private static boolean isHex(String line, int from, int to) {
        for (int index = from; index < to; index++) {
            if (Character.digit(line.charAt(index), 16) < 0) {
                return false;
            }
        }
        return to > from;
    }
}
