package dev.parallax.engine.operator.aggregate;

/** Hash mixing shared by the group key tables. */
public final class KeyHashing {
    private KeyHashing() {
    }

    /** MurmurHash3's 64-bit finalizer: spreads every input bit over the low bits used for slots. */
    public static long mix(long value) {
        long hash = value;
        hash ^= hash >>> 33;
        hash *= 0xFF51AFD7ED558CCDL;
        hash ^= hash >>> 33;
        hash *= 0xC4CEB9FE1A85EC53L;
        hash ^= hash >>> 33;
        return hash;
    }
}
